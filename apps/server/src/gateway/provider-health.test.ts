import { describe, expect, it } from 'vitest';
import type { Exit } from './ports';
import { ProviderHealth } from './provider-health';

const exit = (providerId: number, id = `upstream-${providerId}`): Exit => ({ kind: 'upstream', id, url: 'http://10.0.0.1:8000', providerId });

function clock() {
  let t = 1_700_000_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('provider health', () => {
  it('trips after enough failures in the window, pauses, then tries again and closes on a success', () => {
    const t = clock();
    const trips: number[] = [];
    const h = new ProviderHealth({ now: t.now, onTrip: (id) => trips.push(id) });
    for (let i = 0; i < 6; i++) h.record(exit(1), null, 40);
    for (let i = 0; i < 4; i++) h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    h.record(exit(1), null, 40);
    h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    // 5 failures of 12, not 5 in a row: still up.
    expect(h.providerUp(1)).toBe(true);
    h.record(exit(1), 'UPSTREAM_TIMEOUT', 1);
    expect(h.providerUp(1)).toBe(true);
    for (let i = 0; i < 3; i++) h.record(exit(1), 'UPSTREAM_TIMEOUT', 1);
    // 5 in a row: a provider that died fails every dial, however long its good record.
    expect([h.providerUp(1), trips]).toEqual([false, [1]]);
    const v = h.version;
    t.advance(29_000);
    expect([h.providerUp(1), h.version]).toEqual([false, v]);
    t.advance(1_000);
    expect(h.version).toBeGreaterThan(v);
    expect(h.providerUp(1)).toBe(true);
    // The trial fails: out for another pause. Then a trial that passes closes it.
    h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    expect(h.providerUp(1)).toBe(false);
    t.advance(30_000);
    expect(h.version > v).toBe(true);
    h.record(exit(1), null, 30);
    expect(h.providerUp(1)).toBe(true);
    expect(trips).toEqual([1, 1]);
  });

  it("does not count a target's failure against the provider, and forgets failures past the window", () => {
    const t = clock();
    const h = new ProviderHealth({ now: t.now });
    for (let i = 0; i < 10; i++) h.record(exit(1), 'UPSTREAM_REJECTED', 1);
    for (let i = 0; i < 4; i++) h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    t.advance(31_000);
    h.record(exit(1), null, 20);
    for (let i = 0; i < 4; i++) h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    expect(h.providerUp(1)).toBe(true);
    expect(h.windows()).toEqual([{ providerId: 1, attempts: 5, failures: 4, latencies: expect.any(Array) }]);
  });

  it('takes one failing upstream of a list out without the provider', () => {
    const h = new ProviderHealth({ policy: { minFailures: 3 } });
    for (let i = 0; i < 20; i++) h.record(exit(1, 'upstream-ok'), null, 10);
    for (let i = 0; i < 3; i++) {
      h.record(exit(1, 'upstream-bad'), 'UPSTREAM_REFUSED', 1);
      h.record(exit(1, 'upstream-ok'), null, 10);
    }
    expect([h.upstreamUp('upstream-bad'), h.upstreamUp('upstream-ok'), h.providerUp(1)]).toEqual([false, true, true]);
  });

  it('follows the shared state: down from another process, back when the store says so after its own trip', () => {
    const t = clock();
    const h = new ProviderHealth({ now: t.now });
    h.share([{ providerId: 2, state: 'down', since: t.now() }]);
    expect(h.providerUp(2)).toBe(false);
    for (let i = 0; i < 5; i++) h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    expect(h.providerUp(1)).toBe(false);
    h.share([{ providerId: 1, state: 'down', since: t.now() }, { providerId: 2, state: 'down', since: t.now() }]);
    t.advance(31_000);
    // Its local pause is over, but the shared state still holds it down: only the prober puts it back.
    expect(h.providerUp(1)).toBe(false);
    h.share([{ providerId: 1, state: 'up', since: t.now() }]);
    expect([h.providerUp(1), h.providerUp(2)]).toEqual([true, true]);
    // Put back, it starts afresh: one more failure does not trip it again.
    h.record(exit(1), 'UPSTREAM_REFUSED', 1);
    expect(h.providerUp(1)).toBe(true);
  });
});
