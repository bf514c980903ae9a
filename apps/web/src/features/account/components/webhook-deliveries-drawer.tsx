import { RedoOutlined } from '@ant-design/icons';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryDto, type WebhookDeliveryStatus, type WebhookDto } from '@resi/contract';
import { Button, Drawer, Radio, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { BREAKPOINT, useMediaQuery } from '@/hooks/use-media-query';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { webhookDeliveriesQueryOptions } from '../api/get-webhook-deliveries';
import { useReplayWebhookDelivery } from '../api/replay-webhook-delivery';

const STATUS_COLOR: Record<WebhookDeliveryStatus, string> = { pending: 'blue', delivered: 'green', failed: 'red' };
const STATUS_TEXT: Record<WebhookDeliveryStatus, string> = {
  pending: 'webhooks.status.pending',
  delivered: 'webhooks.status.delivered',
  failed: 'webhooks.status.failed',
};

/**
 * One endpoint's delivery log (docs/api.md#webhooks), newest first and paged by the server, filtered by status; a
 * row opens to the body sent and the receiver's answer or the error, and Replay sends its event again now.
 */
export function WebhookDeliveriesDrawer({ webhook, onClose }: { webhook: WebhookDto; onClose: () => void }) {
  const { t } = useTranslation();
  const wide = useMediaQuery(BREAKPOINT.lg);
  // Below 768 px the row keeps time, status and Replay; the event goes under the time, the rest into the opened row.
  const phone = !useMediaQuery(BREAKPOINT.md);
  const actionsPin = useActionsPin();
  const [status, setStatus] = useState<WebhookDeliveryStatus | undefined>(undefined);
  const paged = usePagedQuery(webhookDeliveriesQueryOptions, { webhookId: webhook.id, status });
  const replay = useReplayWebhookDelivery();

  const resend = (d: WebhookDeliveryDto) =>
    replay.mutate(
      { webhookId: webhook.id, deliveryId: d.id },
      { onSuccess: (res) => notify.success(t(res.data.status === 'delivered' ? 'webhooks.deliveries.replayDelivered' : 'webhooks.deliveries.replayPending')) },
    );

  const columns: TableColumnsType<WebhookDeliveryDto> = [
    {
      title: t('webhooks.deliveries.time'),
      key: 'time',
      render: (_v, d) => (
        <div className="cell-user">
          <span className="nowrap">{formatDateTime(d.createdAt)}</span>
          {phone ? <span className="mono nowrap">{d.event}</span> : null}
          {d.replayOf !== null ? <span className="muted nowrap">{t('webhooks.deliveries.replayOf', { id: d.replayOf })}</span> : null}
        </div>
      ),
    },
    ...(phone ? [] : [{ title: t('webhooks.deliveries.event'), key: 'event', render: (_v: unknown, d: WebhookDeliveryDto) => <span className="mono nowrap">{d.event}</span> }]),
    {
      title: t('webhooks.deliveries.status'),
      key: 'status',
      render: (_v, d) => (
        <Tag color={STATUS_COLOR[d.status]} data-testid="delivery-status">
          {t(STATUS_TEXT[d.status])}
        </Tag>
      ),
    },
    ...(phone
      ? []
      : ([
          { title: t('webhooks.deliveries.attempts'), dataIndex: 'attempts', key: 'attempts', align: 'right' },
          { title: t('webhooks.deliveries.lastCode'), key: 'code', align: 'right', render: (_v, d) => <LastCode delivery={d} /> },
          { title: t('webhooks.deliveries.nextAttempt'), key: 'next', render: (_v, d) => <NextAttempt delivery={d} /> },
        ] satisfies TableColumnsType<WebhookDeliveryDto>)),
    {
      title: phone ? '' : t('webhooks.deliveries.actions'),
      key: 'actions',
      fixed: actionsPin,
      render: (_v, d) => (
        <Button
          type="link"
          icon={<RedoOutlined />}
          disabled={replay.isPending}
          onClick={() => resend(d)}
          aria-label={t('webhooks.deliveries.replay')}
          title={phone ? t('webhooks.deliveries.replay') : undefined}
          data-testid="delivery-replay"
        >
          {phone ? null : t('webhooks.deliveries.replay')}
        </Button>
      ),
    },
  ];

  return (
    <Drawer open onClose={onClose} size={wide ? 980 : '100%'} title={t('webhooks.deliveries.title')} closable={{ placement: 'end' }} data-testid="webhook-deliveries-drawer">
      <p className="mono webhook-url muted">{webhook.url}</p>
      <Radio.Group
        optionType="button"
        size="small"
        value={status ?? 'all'}
        onChange={(e) => setStatus(e.target.value === 'all' ? undefined : (e.target.value as WebhookDeliveryStatus))}
        options={[{ value: 'all', label: t('webhooks.deliveries.all') }, ...WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: t(STATUS_TEXT[s]) }))]}
        className="webhook-deliveries__filter"
        data-testid="delivery-filter"
      />
      <PagedTable<WebhookDeliveryDto>
        paged={paged}
        rowKey="id"
        columns={columns}
        emptyText={t(status ? 'webhooks.deliveries.emptyFiltered' : 'webhooks.deliveries.empty')}
        errorTitle={t('webhooks.deliveries.loadFailed')}
        expandable={{ expandedRowRender: (d) => <DeliveryDetail delivery={d} phone={phone} /> }}
        data-testid="webhook-deliveries-table"
      />
    </Drawer>
  );
}

const none = <span className="muted">—</span>;

function LastCode({ delivery }: { delivery: WebhookDeliveryDto }) {
  return delivery.lastStatusCode === null ? none : <span data-testid="delivery-code">{delivery.lastStatusCode}</span>;
}

function NextAttempt({ delivery }: { delivery: WebhookDeliveryDto }) {
  return delivery.nextAttemptAt ? <span className="nowrap">{formatDateTime(delivery.nextAttemptAt)}</span> : none;
}

/**
 * What was sent, exactly, and what came back: the receiver's first 1 KB, or why there was no answer. On a phone it
 * also holds the figures the row has no room for.
 */
function DeliveryDetail({ delivery, phone }: { delivery: WebhookDeliveryDto; phone: boolean }) {
  const { t } = useTranslation();
  const answer = delivery.lastResponse ?? delivery.lastError;
  return (
    <div className="delivery-detail" data-testid="delivery-detail">
      {phone ? (
        <dl className="delivery-detail__figures">
          <dt>{t('webhooks.deliveries.attempts')}</dt>
          <dd>{delivery.attempts}</dd>
          <dt>{t('webhooks.deliveries.lastCode')}</dt>
          <dd>
            <LastCode delivery={delivery} />
          </dd>
          <dt>{t('webhooks.deliveries.nextAttempt')}</dt>
          <dd>
            <NextAttempt delivery={delivery} />
          </dd>
        </dl>
      ) : null}
      <div className="delivery-detail__label">{t('webhooks.deliveries.body')}</div>
      <pre className="webhook-code">{delivery.body}</pre>
      <div className="delivery-detail__label">{t(delivery.lastResponse !== null ? 'webhooks.deliveries.response' : 'webhooks.deliveries.error')}</div>
      {answer === null ? (
        <p className="muted">{t('webhooks.deliveries.noAnswer')}</p>
      ) : answer === '' ? (
        <p className="muted">{t('webhooks.deliveries.emptyAnswer')}</p>
      ) : (
        <pre className="webhook-code">{answer}</pre>
      )}
    </div>
  );
}
