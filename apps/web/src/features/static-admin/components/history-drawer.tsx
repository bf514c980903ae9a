import type { StaticInventoryDto, StaticInventoryEvent } from '@resi/contract';
import { Drawer, Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { useStaticHistory } from '../api/get-static-history';

/** A row's history, newest first: what happened, who did it (user, order, admin) and why. */
export function HistoryDrawer({ row, onClose }: { row: StaticInventoryDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const history = useStaticHistory(row?.id ?? null);
  const detail = (e: StaticInventoryEvent) =>
    [
      e.actorId !== null ? t('staticAdmin.history.actor', { id: e.actorId }) : null,
      e.userId !== null ? t('staticAdmin.history.user', { id: e.userId }) : null,
      e.orderId !== null ? t('staticAdmin.history.order', { id: e.orderId }) : null,
    ]
      .filter(Boolean)
      .join(' · ');
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      title={t('staticAdmin.history.title', { ip: row?.ip ?? '' })}
      // As the user detail: the close button in the far corner, clear of the page's centred messages.
      closable={{ placement: 'end' }}
      destroyOnHidden
      data-testid="static-history"
    >
      <QueryState query={history} errorTitle={t('staticAdmin.history.loadFailed')}>
        {(events) =>
          events.length === 0 ? (
            <Empty description={t('staticAdmin.history.empty')} />
          ) : (
            <Timeline
              items={events.map((e) => ({
                key: e.id,
                content: (
                  <div data-testid="history-event">
                    <Typography.Text strong>{t(`staticAdmin.event.${e.event}`)}</Typography.Text>{' '}
                    <Typography.Text type="secondary">{formatDateTime(e.at)}</Typography.Text>
                    {detail(e) && <div>{detail(e)}</div>}
                    {e.reason && <div>{t('staticAdmin.history.reason', { reason: e.reason })}</div>}
                  </div>
                ),
              }))}
            />
          )
        }
      </QueryState>
    </Drawer>
  );
}
