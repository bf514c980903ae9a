import type { Lang, PayoffDto, PayoffStatus } from '@resi/contract';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { formatDateTime, formatMoney } from '@/lib/format';
import { PayoffStatusTag } from './status-tags';

/** The latest thing that happened to a request, and when. */
function decidedAt(p: PayoffDto): string | null {
  return p.paidAt ?? p.rejectedAt ?? p.approvedAt;
}

/** The columns both payoff lists share; the admin's adds who asked and the actions. */
export function payoffColumns(t: TFunction, lang: Lang): TableColumnsType<PayoffDto> {
  return [
    { title: t('distributionManage.requests.createdAt'), dataIndex: 'createdAt', className: 'nowrap', render: (v: string) => formatDateTime(v) },
    { title: t('distributionManage.requests.amount'), key: 'amount', align: 'right', className: 'nowrap', render: (_v, p) => formatMoney(p.amount, p.currency, lang) },
    { title: t('distributionManage.requests.method'), dataIndex: 'method', className: 'nowrap', render: (m: PayoffDto['method']) => t(`distributionManage.methods.${m}`) },
    { title: t('distributionManage.requests.account'), dataIndex: 'account', render: (a: string) => <span className="mono dist-account">{a}</span> },
    { title: t('distributionManage.requests.status'), dataIndex: 'status', render: (s: PayoffStatus) => <PayoffStatusTag status={s} /> },
    { title: t('distributionManage.requests.note'), dataIndex: 'note', render: (n: string | null) => <div className="dist-note">{n ?? '—'}</div> },
    { title: t('distributionManage.requests.txRef'), dataIndex: 'txRef', render: (r: string | null) => (r ? <span className="mono">{r}</span> : '—') },
    { title: t('distributionManage.requests.decidedAt'), key: 'decidedAt', className: 'nowrap', render: (_v, p) => formatDateTime(decidedAt(p)) ?? '—' },
  ];
}
