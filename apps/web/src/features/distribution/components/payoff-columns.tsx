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
  // Paired to fit a laptop's width beside the pinned Actions: the method under the amount, the account under it,
  // when it was decided under the status, the transfer reference under the note.
  return [
    { title: t('distributionManage.requests.createdAt'), dataIndex: 'createdAt', className: 'nowrap', render: (v: string) => formatDateTime(v) },
    {
      title: t('distributionManage.requests.amount'),
      key: 'amount',
      className: 'nowrap',
      render: (_v, p) => (
        <div className="cell-payment">
          <span className="cell-payment__amount">{formatMoney(p.amount, p.currency, lang)}</span>
          <span className="muted">{t(`distributionManage.methods.${p.method}`)}</span>
        </div>
      ),
    },
    { title: t('distributionManage.requests.account'), dataIndex: 'account', render: (a: string) => <span className="mono dist-account">{a}</span> },
    {
      title: t('distributionManage.requests.status'),
      key: 'status',
      className: 'nowrap',
      render: (_v, p) => (
        <div className="cell-state">
          <PayoffStatusTag status={p.status as PayoffStatus} />
          <span className="muted">{formatDateTime(decidedAt(p)) ?? ''}</span>
        </div>
      ),
    },
    {
      title: t('distributionManage.requests.note'),
      key: 'note',
      render: (_v, p) => (
        <div className="dist-note">
          <div>{p.note ?? '—'}</div>
          {p.txRef ? <div className="mono muted">{p.txRef}</div> : null}
        </div>
      ),
    },
  ];
}
