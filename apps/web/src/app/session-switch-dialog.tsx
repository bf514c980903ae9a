import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, Typography, type ButtonProps } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '@/api/get-current-user';
import { linkUserQueryOptions } from '@/api/get-link-user';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { storage } from '@/lib/storage';
import { AntdProvider } from './antd-provider';

/**
 * Asks before a link's `?token=` signs this tab in (issues 9 and 22), naming the account the link signs in
 * to. In a tab that holds a session, no keeps it; in a fresh tab, no leaves it signed out on the login page.
 * Yes adopts the link's token as navigation rule 1 does (docs/console.md#navigation-rules), drops everything
 * cached for the old session and opens the page the link named.
 */
export function SessionSwitchDialog() {
  const { t } = useTranslation();
  const pending = useSyncExternalStore(pendingSessionSwitch.subscribe, pendingSessionSwitch.get);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const current = useCurrentUser();
  const linkUser = useQuery({ ...linkUserQueryOptions(pending?.token ?? ''), enabled: pending !== null });
  // A fresh tab has no session to replace: the question is whether to sign in at all.
  const texts = current ? 'layout.switchSession' : 'layout.linkSession';

  const confirm = async () => {
    const offer = pendingSessionSwitch.take();
    if (!offer) return;
    storage.clearSession();
    storage.setToken(offer.token);
    // Reset, not clear: the page behind the dialog stays mounted, and its queries must be fetched again
    // as the new account (clear() drops the cache but leaves mounted queries showing the old account's
    // data). Answers still on their way for the old session are cancelled first.
    await queryClient.cancelQueries();
    await queryClient.resetQueries();
    // The loader finds a token without a known user and waits for the new one (rule 5).
    void navigate(offer.page, { replace: true });
  };

  // Asked over any page, the public ones (drawn without antd) too: it brings antd's theme with it.
  return (
    <AntdProvider overlay>
      <Modal
        open={pending !== null}
        title={t(`${texts}.title`)}
        okText={t(`${texts}.confirm`)}
        cancelText={t(`${texts}.keep`)}
        onOk={confirm}
        onCancel={pendingSessionSwitch.dismiss}
        maskClosable={false}
        okButtonProps={{ 'data-testid': 'session-switch-confirm', danger: true, disabled: !linkUser.data } as ButtonProps}
        cancelButtonProps={{ 'data-testid': 'session-switch-keep' } as ButtonProps}
        data-testid="session-switch"
      >
        <Typography.Paragraph>{t(`${texts}.body`)}</Typography.Paragraph>
        <Typography.Paragraph strong data-testid="session-switch-link-user">
          {linkUser.isError
            ? t('layout.linkSession.failed', { reason: linkUser.error.message })
            : linkUser.data === undefined
              ? t('layout.linkSession.checking')
              : linkUser.data
                ? t('layout.linkSession.account', { email: linkUser.data.email })
                : t('layout.linkSession.invalid')}
        </Typography.Paragraph>
        {current ? <Typography.Paragraph>{t('layout.switchSession.current', { email: current.email })}</Typography.Paragraph> : null}
      </Modal>
    </AntdProvider>
  );
}
