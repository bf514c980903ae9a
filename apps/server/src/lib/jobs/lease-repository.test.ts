import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/test-app';
import { TestClock } from '../../../test/test-clock';
import { twoStores } from '../../../test/two-stores';
import { LeaseRepository } from './lease-repository';

const TTL = 3000;

/* Two processes' views of one store: `a` and `b` are separate handles (connections) to it. */
describe.each(DIALECTS)('job leases on %s', (dialect) => {
  let stores: Awaited<ReturnType<typeof twoStores>>;
  let a: LeaseRepository;
  let b: LeaseRepository;
  let n = 0;
  /** A lease name of its own per test: the store is shared by the file's tests. */
  const fresh = () => `job-${++n}`;
  beforeAll(async () => {
    stores = await twoStores(dialect);
    a = new LeaseRepository(stores.a.db);
    b = new LeaseRepository(stores.b.db);
  });
  afterAll(() => stores?.close());

  it('has one holder at a time: the second process is refused while the lease lives, and the holder renews it', async () => {
    const clock = new TestClock();
    const name = fresh();
    expect(await a.hold(name, 'A', clock.now(), TTL)).toBe(true);
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(false);
    clock.advance(TTL - 1);
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(false);
    // Renewing moves the expiry on from now: B stays refused past the first lease's end.
    expect(await a.hold(name, 'A', clock.now(), TTL)).toBe(true);
    clock.advance(TTL - 1);
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(false);
    expect(await b.holderOf(name, clock.now())).toBe('A');
  });

  it('passes to another process once the holder stops renewing, and the old holder has lost it', async () => {
    const clock = new TestClock();
    const name = fresh();
    expect(await a.hold(name, 'A', clock.now(), TTL)).toBe(true);
    clock.advance(TTL);
    expect(await b.holderOf(name, clock.now())).toBeNull();
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(true);
    expect(await a.hold(name, 'A', clock.now(), TTL)).toBe(false);
    expect(await a.holderOf(name, clock.now())).toBe('B');
  });

  it('gives two processes asking at once for a free or expired lease exactly one yes', async () => {
    const clock = new TestClock();
    for (let round = 0; round < 20; round++) {
      const name = fresh();
      const first = await Promise.all([a.hold(name, 'A', clock.now(), TTL), b.hold(name, 'B', clock.now(), TTL)]);
      expect(first.filter(Boolean)).toHaveLength(1);
      clock.advance(TTL);
      // Expired: a third holder and the two others race to take it over.
      const again = await Promise.all([a.hold(name, 'C', clock.now(), TTL), b.hold(name, 'D', clock.now(), TTL)]);
      expect(again.filter(Boolean)).toHaveLength(1);
    }
  });

  it('hands the lease over at once on release; a release by another process changes nothing', async () => {
    const clock = new TestClock();
    const name = fresh();
    expect(await a.hold(name, 'A', clock.now(), TTL)).toBe(true);
    await b.release(name, 'B');
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(false);
    await a.release(name, 'A');
    expect(await b.hold(name, 'B', clock.now(), TTL)).toBe(true);
  });

  it('take (the poll throttle) is refused to everyone until the lease expires, the taker included; sweep clears only expired rows of its prefix', async () => {
    const clock = new TestClock();
    const key = `poll:card:${fresh()}`;
    expect(await a.take(key, 'poll', clock.now(), TTL)).toBe(true);
    expect(await a.take(key, 'poll', clock.now(), TTL)).toBe(false);
    clock.advance(TTL - 1);
    expect(await b.take(key, 'poll', clock.now(), TTL)).toBe(false);
    clock.advance(1);
    expect(await b.take(key, 'poll', clock.now(), TTL)).toBe(true);

    const job = fresh();
    const spent = `poll:card:${fresh()}`;
    await a.hold(job, 'A', clock.now(), TTL);
    await a.take(spent, 'poll', clock.now(), 1);
    clock.advance(1);
    await a.sweep('poll:', clock.now());
    const names = (await stores.a.db.selectFrom('job_leases').select('name').where('name', 'in', [key, job, spent]).execute()).map((r) => r.name);
    expect(names.sort()).toEqual([job, key].sort());
  });
});
