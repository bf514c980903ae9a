import type { ProxyAccountDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { newAccountValues, toAccountValues, toCreateBody, toUpdateBody, usedPercent } from './account-values';

const account = (patch: Partial<ProxyAccountDto> = {}): ProxyAccountDto => ({
  id: 7,
  username: 'shop_1',
  password: 'Secret123',
  status: 'active',
  limitBytes: 5 * BYTES_PER_GB,
  usedBytes: 0,
  maxConnections: null,
  remark: 'shop',
  createdAt: '2026-11-01T00:00:00.000Z',
  loginFailures: 0,
  lastLoginFailureAt: null,
  requirePassword: false,
  pauseAtCap: true,
  extractKeyPrefix: null,
  ...patch,
});

describe('proxy account values', () => {
  it('offers a random password the contract accepts', () => {
    const { password } = newAccountValues();
    expect(password).toMatch(/^[A-Za-z0-9]{8,32}$/);
    expect(newAccountValues().password).not.toBe(password);
  });

  it('sends the cap typed in GB as whole bytes and leaves out what is empty', () => {
    expect(toCreateBody({ username: ' Shop_1 ', password: 'Secret123', limitGb: 1.5, remark: '  ' })).toEqual({
      username: 'shop_1',
      password: 'Secret123',
      limitBytes: 1610612736,
    });
    expect(toCreateBody({ username: 'shop_1', password: 'Secret123', limitGb: null, remark: 'eu team' })).toEqual({ username: 'shop_1', password: 'Secret123', remark: 'eu team' });
  });

  it('shows the cap in GB with two decimals, no cap as empty', () => {
    expect(toAccountValues(account()).limitGb).toBe(5);
    expect(toAccountValues(account({ limitBytes: 1234567890 })).limitGb).toBe(1.15);
    expect(toAccountValues(account({ limitBytes: null, remark: null }))).toMatchObject({ limitGb: null, remark: '' });
  });

  it('updates only what changed, keeping an unchanged cap exact and clearing with null', () => {
    const odd = account({ limitBytes: 1234567890 });
    expect(toUpdateBody(odd, { ...toAccountValues(odd), remark: 'new' })).toEqual({ remark: 'new' });
    expect(toUpdateBody(odd, { ...toAccountValues(odd), limitGb: 2 })).toEqual({ limitBytes: 2 * BYTES_PER_GB });
    expect(toUpdateBody(odd, { ...toAccountValues(odd), limitGb: null, remark: '' })).toEqual({ limitBytes: null, remark: null });
    expect(toUpdateBody(odd, { ...toAccountValues(odd), password: 'Other1234' })).toEqual({ password: 'Other1234' });
  });

  it('sends a connection limit when set, and a cleared one as null', () => {
    expect(toCreateBody({ username: 'shop_1', password: 'Secret123', limitGb: null, maxConnections: 20, remark: '' })).toEqual({ username: 'shop_1', password: 'Secret123', maxConnections: 20 });
    expect(toAccountValues(account({ maxConnections: 20 })).maxConnections).toBe(20);
    expect(toUpdateBody(account(), { ...toAccountValues(account()), maxConnections: 5 })).toEqual({ maxConnections: 5 });
    expect(toUpdateBody(account({ maxConnections: 5 }), { ...toAccountValues(account({ maxConnections: 5 })), maxConnections: null })).toEqual({ maxConnections: null });
    expect(toUpdateBody(account({ maxConnections: 5 }), toAccountValues(account({ maxConnections: 5 })))).toEqual({});
  });

  it('gives the share of the cap used, capped at 100, none without a cap', () => {
    expect(usedPercent({ usedBytes: BYTES_PER_GB, limitBytes: 4 * BYTES_PER_GB })).toBe(25);
    expect(usedPercent({ usedBytes: 9 * BYTES_PER_GB, limitBytes: 4 * BYTES_PER_GB })).toBe(100);
    expect(usedPercent({ usedBytes: 5, limitBytes: null })).toBeNull();
  });
});
