import { describe, expect, it } from 'vitest';
import { silentLog } from './gateway-log';
import { UsageMeter } from './meter';
import type { UsageDelta, UsageSink } from './ports';

const HOUR = 3_600_000;

/** A sink that fails when told to, and records every call. */
function flakySink() {
  const calls: { seq: number; deltas: UsageDelta[] }[] = [];
  const applied = new Map<number, UsageDelta[]>();
  let failNext = 0;
  const sink: UsageSink = {
    async flush(_gw, seq, deltas) {
      calls.push({ seq, deltas: structuredClone(deltas) });
      if (failNext > 0) {
        failNext--;
        // A timeout after the batch did land: the store has it, the gateway does not know.
        applied.set(seq, structuredClone(deltas));
        throw new Error('timeout');
      }
      applied.set(seq, structuredClone(deltas));
    },
  };
  return { sink, calls, applied, fail: (n: number) => void (failNext = n) };
}

const key = { accountId: 1, userId: 10, country: 'US' };

describe('usage meter', () => {
  it('sums per account, country and hour, and sends deltas since the last flush', async () => {
    let t = Date.UTC(2026, 10, 22, 13, 59, 59);
    const s = flakySink();
    const m = new UsageMeter({ sink: s.sink, gatewayId: 'gw', seqStart: 1, now: () => t, log: silentLog });
    m.record(key, 100, 1000);
    m.record(key, 1, 10);
    m.record({ ...key, country: null }, 5, 5);
    m.record({ accountId: 2, userId: 20, country: 'US' }, 7, 7);
    t += 1000; // next hour
    m.record(key, 3, 30);
    expect(await m.flush()).toBe(true);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]!.deltas).toEqual([
      { accountId: 1, userId: 10, hour: '2026-11-22T13:00:00.000Z', country: 'US', bytesUp: 101, bytesDown: 1010 },
      { accountId: 1, userId: 10, hour: '2026-11-22T13:00:00.000Z', country: null, bytesUp: 5, bytesDown: 5 },
      { accountId: 2, userId: 20, hour: '2026-11-22T13:00:00.000Z', country: 'US', bytesUp: 7, bytesDown: 7 },
      { accountId: 1, userId: 10, hour: '2026-11-22T14:00:00.000Z', country: 'US', bytesUp: 3, bytesDown: 30 },
    ]);
    expect(await m.flush()).toBe(true);
    expect(s.calls).toHaveLength(1); // nothing new, nothing sent
    m.record(key, 1, 2);
    await m.flush();
    expect(s.calls[1]).toEqual({ seq: 2, deltas: [{ accountId: 1, userId: 10, hour: '2026-11-22T14:00:00.000Z', country: 'US', bytesUp: 1, bytesDown: 2 }] });
  });

  it('retries a failed batch with the same seq and never folds new bytes into it', async () => {
    const s = flakySink();
    const m = new UsageMeter({ sink: s.sink, gatewayId: 'gw', seqStart: 40, now: () => 5 * HOUR, log: silentLog });
    m.record(key, 10, 100);
    s.fail(2);
    expect(await m.flush()).toBe(false);
    m.record(key, 1, 1); // arrives while batch 40 is pending
    expect(m.unflushed()).toEqual({ bytesUp: 11, bytesDown: 101 });
    expect(await m.flush()).toBe(false);
    expect(await m.flush()).toBe(true);
    expect(s.calls.map((c) => c.seq)).toEqual([40, 40, 40, 41]);
    expect(s.calls.slice(0, 3).every((c) => c.deltas[0]!.bytesUp === 10 && c.deltas[0]!.bytesDown === 100)).toBe(true);
    expect(s.calls[3]!.deltas[0]).toMatchObject({ bytesUp: 1, bytesDown: 1 });
    // Applied once per seq, as the store does: 11 up, 101 down in total, nothing doubled.
    const total = [...s.applied.values()].flat().reduce((a, d) => a + d.bytesUp + d.bytesDown, 0);
    expect(total).toBe(112);
    expect(m.unflushed()).toEqual({ bytesUp: 0, bytesDown: 0 });
  });

  it('tells the byte budgets what the store does not show yet, never a batch it already shows', async () => {
    const s = flakySink();
    const m = new UsageMeter({ sink: s.sink, gatewayId: 'gw', seqStart: 70, now: () => 5 * HOUR, log: silentLog });
    const other = { accountId: 2, userId: 10, country: null };
    m.record(key, 100, 900);
    m.record(other, 0, 500);
    // Unsent: whatever the store's figure includes, these bytes are not in it.
    expect([m.unseenOfUser(10, 0), m.unseenOfAccount(1, 0), m.unseenOfAccount(2, 0)]).toEqual([1500, 1000, 500]);
    // Batch 70 lands although its flush reports a failure (a timeout): still pending here.
    s.fail(1);
    expect(await m.flush()).toBe(false);
    m.record(key, 0, 7);
    // A figure that includes batch 70 must not lose those bytes again; one from before it must.
    expect([m.unseenOfUser(10, 70), m.unseenOfAccount(1, 70), m.unseenOfAccount(2, 70)]).toEqual([7, 7, 0]);
    expect([m.unseenOfUser(10, 69), m.unseenOfAccount(1, 69)]).toEqual([1507, 1007]);
    expect(await m.flush()).toBe(true);
    // Batch 71 landed; until the figures show it, it counts.
    expect([m.unseenOfUser(10, 70), m.unseenOfUser(10, 71)]).toEqual([7, 0]);
    m.forgetSeen(71);
    expect([m.unseenOfUser(10, 0), m.unseenOfAccount(1, 0)]).toEqual([0, 0]);
  });

  it('starts its batch numbers at the start time, so a restarted gateway does not reuse one', async () => {
    const s = flakySink();
    const m = new UsageMeter({ sink: s.sink, gatewayId: 'gw', now: () => 1_800_000_000_123, log: silentLog });
    m.record(key, 1, 1);
    await m.flush();
    expect(s.calls[0]!.seq).toBe(1_800_000_000_123);
  });
});
