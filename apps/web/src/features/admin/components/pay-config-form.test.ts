import type { PayConfigDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { initialPayConfigValues, payConfigBody, secretState } from './pay-config-form';

const card: PayConfigDto = {
  method: 'card',
  enabled: true,
  settings: { currency: 'USD' },
  secrets: { secretKey: '••••4242', webhookSecret: null },
  available: true,
  needsReentry: false,
};

describe('payment settings form: secrets are never echoed', () => {
  it('loads settings and leaves every secret field empty', () => {
    expect(initialPayConfigValues(card)).toEqual({ enabled: true, settings: { currency: 'USD' }, secrets: { secretKey: '', webhookSecret: '' } });
  });

  it('keeps a stored secret when its field is left empty (the key is absent)', () => {
    const body = payConfigBody('card', initialPayConfigValues(card), new Set());
    expect(body).toEqual({ method: 'card', enabled: true, settings: { currency: 'USD' }, secrets: {} });
    expect('secretKey' in body.secrets).toBe(false);
  });

  it('replaces a secret that was typed, trimmed', () => {
    const values = { ...initialPayConfigValues(card), secrets: { secretKey: '  sk_test_new  ', webhookSecret: '' } };
    expect(payConfigBody('card', values, new Set()).secrets).toEqual({ secretKey: 'sk_test_new' });
  });

  it('sends "" for a secret marked to clear, unless a new value was typed', () => {
    const values = initialPayConfigValues(card);
    expect(payConfigBody('card', values, new Set(['secretKey'])).secrets).toEqual({ secretKey: '' });
    const typed = { ...values, secrets: { secretKey: 'sk_live_x', webhookSecret: '' } };
    expect(payConfigBody('card', typed, new Set(['secretKey'])).secrets).toEqual({ secretKey: 'sk_live_x' });
  });

  it('sends only the fields of the method, settings trimmed', () => {
    const values = { enabled: false, settings: { address: ' TXYZ ', apiBase: '', stray: 'x' }, secrets: { apiKey: '' } };
    expect(payConfigBody('usdt-trc20', values, new Set())).toEqual({ method: 'usdt-trc20', enabled: false, settings: { address: 'TXYZ', apiBase: '' }, secrets: {} });
  });

  it('tells set, unset and clearing secrets apart', () => {
    expect(secretState(card, 'secretKey', new Set())).toBe('set');
    expect(secretState(card, 'webhookSecret', new Set())).toBe('unset');
    expect(secretState(card, 'secretKey', new Set(['secretKey']))).toBe('clearing');
  });
});
