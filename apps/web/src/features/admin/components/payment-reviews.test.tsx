import { LANGS, REVIEW_REASONS, type PaymentReviewDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, loadPack } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { PaymentReviews } from './payment-reviews';

const review = (id: number, reason: string): PaymentReviewDto => ({
  id,
  provider: 'usdt-trc20',
  eventId: `tx${id}`,
  orderNo: `D2026010100000000000${id}`,
  amount: '3.001234',
  asset: 'USDT',
  reason,
  status: 'open',
  createdAt: '2026-01-01T00:00:00Z',
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('payment review reasons', () => {
  // Languages are loaded when first used; this reads all three.
  beforeAll(() => Promise.all(LANGS.map(loadPack)));

  it.each(LANGS)('every reason code the server can write has a %s translation', (lang) => {
    // Read from the language's own resources: a fallback to en would hide a missing translation.
    for (const code of REVIEW_REASONS) {
      const text: unknown = i18n.getResource(lang, 'translation', `admin.reviews.reasons.${code}`);
      expect(typeof text === 'string' && text.trim() !== '' && text !== code, `${lang} ${code}`).toBe(true);
    }
  });

  it('shows a reason as words, keeping the code as a hint, and an unknown code as it is', async () => {
    fetchMock.mockImplementation(async () => Response.json({ data: { items: [review(1, 'ORDER_NOT_PENDING'), review(2, 'SOMETHING_NEW')], total: 2, page: 1, pageSize: 20 } }));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <App>
          <PaymentReviews />
        </App>
      </QueryClientProvider>,
    );
    const words = await screen.findByText('The order was no longer open (expired or cancelled)');
    expect(words.getAttribute('title')).toBe('ORDER_NOT_PENDING');
    expect(screen.queryByText('ORDER_NOT_PENDING')).toBeNull();
    expect(screen.getByText('SOMETHING_NEW')).toBeTruthy();
  });
});
