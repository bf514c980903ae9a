import type { PayConfigDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { PayMethodCard } from './pay-method-card';

const card = (patch: Partial<PayConfigDto> = {}): PayConfigDto => ({
  method: 'card',
  enabled: true,
  settings: {},
  secrets: { secretKey: null, webhookSecret: null },
  available: true,
  needsReentry: false,
  ...patch,
});

const renderCard = (config: PayConfigDto) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PayMethodCard config={config} />
    </QueryClientProvider>,
  );

describe('PayMethodCard', () => {
  it('tells the admin to enter secrets again when the server could not decrypt them', () => {
    renderCard(card({ needsReentry: true }));
    expect(screen.getByTestId('pay-reentry-card').textContent).toContain('APP_SECRET has changed');
  });

  it('says nothing about it when the secrets are readable', () => {
    renderCard(card());
    expect(screen.queryByTestId('pay-reentry-card')).toBeNull();
  });
});
