import { describe, expect, it } from 'vitest';
import { nextExpiringGrant } from './traffic-balance-card';

const grant = (id: number, expiresAt: string, bytes = 100, usedBytes = 0) => ({ id, orderNo: null, bytes, usedBytes, expiresAt, createdAt: '2026-01-01T00:00:00Z' });

describe('nextExpiringGrant', () => {
  it('is the grant with traffic left that expires first', () => {
    const grants = [grant(1, '2026-03-01T00:00:00Z'), grant(2, '2026-02-01T00:00:00Z', 100, 100), grant(3, '2026-02-15T00:00:00Z')];
    expect(nextExpiringGrant(grants)?.id).toBe(3);
  });

  it('is null when nothing is left', () => {
    expect(nextExpiringGrant([grant(1, '2026-03-01T00:00:00Z', 5, 5)])).toBeNull();
    expect(nextExpiringGrant([])).toBeNull();
  });
});
