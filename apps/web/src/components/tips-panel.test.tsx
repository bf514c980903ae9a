import type { SiteInfo } from '@resi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FALLBACK_SITE } from '@/api/get-site';
import '@/lib/i18n';
import { TipsPanel } from './tips-panel';

function showWith(site: Partial<SiteInfo>) {
  const client = new QueryClient();
  client.setQueryData(['site'], { ...FALLBACK_SITE, ...site });
  render(
    <QueryClientProvider client={client}>
      <TipsPanel />
    </QueryClientProvider>,
  );
  return screen.getByTestId('tips-panel');
}

describe('tips panel', () => {
  it('names only the payment methods checkout offers, in its order', () => {
    const panel = showWith({ payMethods: ['sandbox', 'alipay', 'manual'] });
    expect(screen.getByTestId('tips-pay-methods').textContent).toContain('AliPay');
    expect(panel.textContent).not.toContain('USDT');
    expect(panel.textContent).not.toContain('Credit card');
  });

  it('says nothing of payment when none of USDT, AliPay and card is on, and offers no support link without one', () => {
    const panel = showWith({ payMethods: ['sandbox'], supportUrl: '' });
    expect(screen.queryByTestId('tips-pay-methods')).toBeNull();
    expect(panel.textContent).not.toContain('Contact support');
  });

  it('shows all three and the support link when they are set', () => {
    const panel = showWith({ payMethods: ['card', 'usdt-trc20', 'alipay'], supportUrl: 'https://t.me/acme' });
    expect(screen.getByTestId('tips-pay-methods').textContent).toMatch(/USDT.*AliPay.*Credit card/);
    expect(panel.querySelector('a[href="https://t.me/acme"]')?.textContent).toBe('Contact support');
  });
});
