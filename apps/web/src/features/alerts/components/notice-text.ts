import type { Lang, NoticeDto } from '@resi/contract';
import type { TFunction } from 'i18next';
import { formatBytes } from '@/lib/format';

/**
 * A notice in words, from its kind and the figures the server measured when it crossed (the notice stores them, so
 * the text says what was true then, not now). One literal key per kind, so the locales test finds each.
 */
export function noticeText(notice: NoticeDto, t: TFunction, lang: Lang): string {
  const bytes = (value: number | null) => formatBytes(value ?? 0, lang);
  switch (notice.kind) {
    case 'balance.bytesLeft':
      return t('alerts.notice.balance.bytesLeft', { balance: bytes(notice.balanceBytes), threshold: bytes(notice.threshold) });
    case 'balance.percentLeft':
      return t('alerts.notice.balance.percentLeft', { balance: bytes(notice.balanceBytes), threshold: notice.threshold });
    case 'balance.empty':
      return t('alerts.notice.balance.empty');
    case 'account.cap':
      return t('alerts.notice.account.cap', { account: notice.accountUsername ?? '', threshold: notice.threshold, used: bytes(notice.usedBytes), limit: bytes(notice.limitBytes) });
  }
}
