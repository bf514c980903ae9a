import { DeleteOutlined, SendOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { WEBHOOKS_MAX, type CreatedWebhookDto, type WebhookDto } from '@resi/contract';
import { Button, Popconfirm, Space, Switch, Tag, type TableColumnsType } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { BREAKPOINT, useMediaQuery } from '@/hooks/use-media-query';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useUpdateWebhook } from '../api/update-webhook';
import { CappedListCard } from './capped-list-card';
import { WebhookSecretModal } from './webhook-secret-modal';

// Fetched when first opened: most visits to Personal info neither add an endpoint nor read a delivery log.
const WebhookCreateModal = lazy(() => import('./webhook-create-modal').then((m) => ({ default: m.WebhookCreateModal })));
const WebhookDeliveriesDrawer = lazy(() => import('./webhook-deliveries-drawer').then((m) => ({ default: m.WebhookDeliveriesDrawer })));

/**
 * The customer's webhook endpoints (docs/api.md#webhooks): URL, events, on or off, the delivery log and removal;
 * "Add endpoint" opens the form, and the new endpoint's signing secret is shown once.
 */
export function WebhooksCard() {
  const { t } = useTranslation();
  const webhooks = useWebhooks();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const actionsPin = useActionsPin();
  const phone = !useMediaQuery(BREAKPOINT.md);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhookDto | null>(null);
  const [logOf, setLogOf] = useState<WebhookDto | null>(null);

  const endpoint = (w: WebhookDto) => (
    <div className="cell-user">
      <span className="mono webhook-url" data-testid="webhook-url">
        {w.url}
      </span>
      <span className="muted nowrap">{t('webhooks.card.added', { date: formatDateTime(w.createdAt) })}</span>
    </div>
  );
  const events = (w: WebhookDto) => (
    <div className="api-key-scopes" data-testid="webhook-events">
      {w.events.map((event) => (
        <Tag key={event} className="mono">
          {event}
        </Tag>
      ))}
    </div>
  );
  const enabled = (w: WebhookDto) => (
    <Switch
      checked={w.enabled}
      loading={update.isPending && update.variables?.id === w.id}
      onChange={(on) => update.mutate({ id: w.id, body: { enabled: on } }, { onSuccess: (res) => notify.success(res.message || t('webhooks.card.saved')) })}
      aria-label={t('webhooks.columns.enabled')}
      data-testid="webhook-enabled"
    />
  );
  const actions = (w: WebhookDto) => (
    <Space size={0} wrap>
      <Button type="link" icon={<UnorderedListOutlined />} onClick={() => setLogOf(w)} data-testid="webhook-deliveries">
        {t('webhooks.card.deliveries')}
      </Button>
      <Popconfirm
        title={t('webhooks.remove.confirm')}
        description={t('webhooks.remove.hint')}
        okText={t('webhooks.remove.ok')}
        cancelText={t('webhooks.remove.cancel')}
        okButtonProps={{ danger: true, 'data-testid': 'webhook-delete-ok' } as never}
        onConfirm={() => remove.mutateAsync(w.id).then((res) => notify.success(res.message || t('webhooks.remove.done')), () => undefined)}
      >
        <Button type="link" danger icon={<DeleteOutlined />} data-testid="webhook-delete">
          {t('webhooks.remove.ok')}
        </Button>
      </Popconfirm>
    </Space>
  );

  // On a phone one column holds it all, the switch and actions under the URL: four columns scrolled the switch and
  // the actions out of sight.
  const columns: TableColumnsType<WebhookDto> = phone
    ? [
        {
          title: t('webhooks.columns.endpoint'),
          key: 'endpoint',
          render: (_v, w) => (
            <div className="webhook-stacked">
              {endpoint(w)}
              {events(w)}
              <div className="webhook-stacked__actions">
                {enabled(w)}
                {actions(w)}
              </div>
            </div>
          ),
        },
      ]
    : [
        { title: t('webhooks.columns.endpoint'), key: 'url', render: (_v, w) => endpoint(w) },
        { title: t('webhooks.columns.events'), key: 'events', render: (_v, w) => events(w) },
        { title: t('webhooks.columns.enabled'), key: 'enabled', render: (_v, w) => enabled(w) },
        { title: t('webhooks.columns.actions'), key: 'actions', fixed: actionsPin, render: (_v, w) => actions(w) },
      ];

  return (
    <CappedListCard
      icon={<SendOutlined />}
      title={t('webhooks.card.title')}
      lead={t('webhooks.card.lead')}
      query={webhooks}
      rowsOf={(list) => list}
      columns={columns}
      emptyText={t('webhooks.card.empty')}
      loadFailed={t('webhooks.card.loadFailed')}
      max={WEBHOOKS_MAX}
      countText={(count, full) => t(full ? 'webhooks.card.countFull' : 'webhooks.card.count', { count, max: WEBHOOKS_MAX })}
      createLabel={t('webhooks.card.create')}
      createTestId="webhook-create"
      onCreate={() => setCreating(true)}
      testId="webhooks"
    >
      {creating ? (
        <Suspense fallback={null}>
          <WebhookCreateModal
            onClose={() => setCreating(false)}
            onCreated={(webhook) => {
              setCreating(false);
              setCreated(webhook);
            }}
          />
        </Suspense>
      ) : null}
      {created ? <WebhookSecretModal created={created} onClose={() => setCreated(null)} /> : null}
      {logOf ? (
        <Suspense fallback={null}>
          <WebhookDeliveriesDrawer webhook={logOf} onClose={() => setLogOf(null)} />
        </Suspense>
      ) : null}
    </CappedListCard>
  );
}
