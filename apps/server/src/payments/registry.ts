import type { PayMethod } from '@resi/contract';
import { createAlipayProvider } from './alipay';
import { createCardProvider } from './card';
import { manualProvider } from './manual';
import type { PollThrottle } from './poll-throttle';
import type { PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';
import { usdtTrc20Provider } from './usdt-trc20';

/** Every adapter the build carries; which ones customers see is decided by the payment settings. */
export function createProviders(opts: { throttle: PollThrottle; stripeApiBase?: string }): Map<PayMethod, PaymentProvider> {
  return new Map<PayMethod, PaymentProvider>(
    [sandboxProvider, manualProvider, usdtTrc20Provider, createAlipayProvider(opts.throttle), createCardProvider({ apiBase: opts.stripeApiBase, throttle: opts.throttle })].map((p) => [p.method, p]),
  );
}
