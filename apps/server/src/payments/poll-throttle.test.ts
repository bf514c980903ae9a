import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-app';
import { TestClock } from '../../test/test-clock';
import { twoStores } from '../../test/two-stores';
import { LeaseRepository } from '../lib/jobs/lease-repository';
import { LeasePollThrottle, QUERY_INTERVAL_MS } from './poll-throttle';

/* The throttle of two API processes behind one load balancer: separate handles on one store. */
describe.each(DIALECTS)('the provider poll throttle across processes on %s', (dialect) => {
  let stores: Awaited<ReturnType<typeof twoStores>>;
  beforeAll(async () => {
    stores = await twoStores(dialect);
  });
  afterAll(() => stores?.close());

  it('lets one poll of all processes ask about an order per interval; other orders and methods are not held up', async () => {
    const clock = new TestClock();
    const one = new LeasePollThrottle(new LeaseRepository(stores.a.db));
    const two = new LeasePollThrottle(new LeaseRepository(stores.b.db));
    expect(await one.mayAsk('card', 'D1', clock.now())).toBe(true);
    expect(await two.mayAsk('card', 'D1', clock.now())).toBe(false);
    expect(await one.mayAsk('card', 'D1', clock.now())).toBe(false);
    expect(await two.mayAsk('card', 'D2', clock.now())).toBe(true);
    expect(await two.mayAsk('alipay', 'D1', clock.now())).toBe(true);
    clock.advance(QUERY_INTERVAL_MS - 1);
    expect(await two.mayAsk('card', 'D1', clock.now())).toBe(false);
    clock.advance(1);
    const answers = await Promise.all([one.mayAsk('card', 'D1', clock.now()), two.mayAsk('card', 'D1', clock.now())]);
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('sweeps its spent rows as it goes', async () => {
    const clock = new TestClock();
    const throttle = new LeasePollThrottle(new LeaseRepository(stores.a.db));
    for (let i = 0; i < 5; i++) await throttle.mayAsk('card', `S${i}`, clock.now());
    clock.advance(2 * 60_000);
    await throttle.mayAsk('card', 'S-last', clock.now());
    const left = await stores.a.db.selectFrom('job_leases').select('name').where('name', 'like', 'poll:card:S%').execute();
    expect(left.map((r) => r.name)).toEqual(['poll:card:S-last']);
  });
});
