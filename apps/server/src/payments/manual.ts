import type { Lang } from '@resi/contract';
import type { MethodConfig, PaymentProvider } from './provider';

const FIELD: Record<Lang, string> = { en: 'instructionsEn', 'zh-cn': 'instructionsZhCn', zh: 'instructionsZh' };

/** Bank transfer, cash, anything offline: the customer reads the operator's instructions, an admin verifies. */
export const manualProvider: PaymentProvider = {
  method: 'manual',
  available: () => true,
  configured: (c: MethodConfig) => Boolean(c.settings.instructionsEn?.trim()),
  async start(order, ctx) {
    const text = ctx.config.settings[FIELD[ctx.lang]]?.trim() || ctx.config.settings.instructionsEn || '';
    return { payment: { type: 'instructions', text: text.replaceAll('{orderNo}', order.order_no) } };
  },
};
