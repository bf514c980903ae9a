import { expect } from 'vitest';
import { call } from './auth-flows';
import type { TestApp } from './test-app';

/** Hands out `n` addresses under `prefix` (`203.0.113` → `203.0.113.1`, `.2`, …), never the same twice. */
export function addressPool(prefix: string): (n: number) => string[] {
  let next = 1;
  return (n) => Array.from({ length: n }, () => `${prefix}.${next++}`);
}

/** Imports the addresses into a static region through the admin API (HTTP upstreams on port 3128); each must be created. */
export async function importInventory(t: TestApp, adminToken: string, q: { regionId: number; ips: string[]; businessIds?: number[] }): Promise<string[]> {
  const res = await call(t.app, 'POST', '/api/manage/static-inventory', {
    token: adminToken,
    body: { regionId: q.regionId, businessIds: q.businessIds ?? [], lines: q.ips.map((ip) => `${ip}:3128:up:pw`).join('\n') },
  });
  expect(res.body).toMatchObject({ data: { created: q.ips.length } });
  return q.ips;
}
