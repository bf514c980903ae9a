import type { WebhookEvent } from '@resi/contract';

/** The i18n keys naming and explaining each event (the event names themselves have dots, which i18next nests). */
export const WEBHOOK_EVENT_TEXT: Record<WebhookEvent, { name: string; hint: string }> = {
  'usage.threshold': { name: 'webhooks.event.usageThreshold.name', hint: 'webhooks.event.usageThreshold.hint' },
  'balance.empty': { name: 'webhooks.event.balanceEmpty.name', hint: 'webhooks.event.balanceEmpty.hint' },
  'order.paid': { name: 'webhooks.event.orderPaid.name', hint: 'webhooks.event.orderPaid.hint' },
  'static.expiring': { name: 'webhooks.event.staticExpiring.name', hint: 'webhooks.event.staticExpiring.hint' },
  'static.replaced': { name: 'webhooks.event.staticReplaced.name', hint: 'webhooks.event.staticReplaced.hint' },
};
