import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login } from '../../../test/auth-flows';
import { buy, signedIn } from '../../../test/commerce';
import { distributionApp } from '../../../test/distribution-kit';
import { DIALECTS, type TestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';
import { UserRepository } from '../auth/user-repository';

/**
 * Random interleavings of paying, refunding, asking for a payoff, approving, rejecting and marking paid,
 * drawn by fast-check and checked after every step against a model of the ledger and against the rules of
 * docs/business-rules.md#commission. A failure is shrunk to a short sequence and printed with its seed.
 */
// 30 sequences (about 800 checked steps per store) in every run; LEDGER_RUNS=1000 soaks it for longer.
const RUNS = Number(process.env.LEDGER_RUNS ?? 30);
const MIN_STEPS = 15;
const MAX_STEPS = 40;
const PASSWORD = 'Passw0rdOK';
const HOLD_DAYS = 1;
const MIN_PAYOUT = 100;
const RATE = 10;
const PRICES: Record<number, number> = { 1: 300, 2: 2500, 3: 10000, 4: 35000 };
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

/** One step; `pick` chooses among the orders or requests there are when the step runs. */
type Step =
  | { name: 'pay'; goodsId: number }
  | { name: 'refund'; pick: number }
  | { name: 'time'; hours: number }
  | { name: 'request'; size: 'below-minimum' | 'within' | 'above-available'; part: number }
  | { name: 'decide'; pick: number; to: 'approved' | 'rejected' | 'paid' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ name: fc.constant('pay' as const), goodsId: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ name: fc.constant('refund' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ name: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 48 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      name: fc.constant('request' as const),
      // Mostly requests that can be granted, so decisions have requests to act on.
      size: fc.oneof({ weight: 3, arbitrary: fc.constant('within' as const) }, fc.constant('below-minimum' as const), fc.constant('above-available' as const)),
      part: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ name: fc.constant('decide' as const), pick: fc.nat(), to: fc.constantFrom('approved' as const, 'rejected' as const, 'paid' as const) }) },
);

interface ModelOrder {
  orderNo: string;
  commission: number;
  maturesAt: number;
  refunded: boolean;
  voided: boolean;
  reversed: boolean;
}
interface ModelRequest {
  id: number;
  amount: number;
  status: 'pending' | 'approved' | 'paid' | 'rejected';
}

describe.each(DIALECTS)('commission ledger under random interleavings on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    ({ t, admin } = await distributionApp(dialect, { defaultRate: RATE, holdDays: HOLD_DAYS, minPayout: MIN_PAYOUT, payoutMethods: ['bank'] }));
  });
  afterAll(() => t.close());

  // Sequences of up to 40 steps through the API, up to 10 s each here: a budget for the whole property, not a wait.
  it('figures match the model and the ledger adds up after every step of every sequence', { timeout: Math.max(300_000, RUNS * 10_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: MIN_STEPS, maxLength: MAX_STEPS, size: 'max' }), async (sequence) => {
        await run(sequence);
      }),
      { numRuns: RUNS },
    );
  });

  /** A new distributor and a customer they referred go through the sequence. */
  async function run(sequence: Step[]): Promise<void> {
    const email = uniqueEmail('ilv');
    const dUser = await createUser(t, { email, password: PASSWORD, isDistributor: true });
    const dToken = (await login(t.app, email, PASSWORD, uniqueIp())).body.token as string;
    const buyer = await signedIn(t);
    await new UserRepository(t.db.db).update(buyer.user.id, { referrer_id: dUser.id });
    const orders: ModelOrder[] = [];
    const requests: ModelRequest[] = [];
    const now = () => t.clock.now().getTime();

    const model = () => {
      const live = orders.filter((o) => !o.voided);
      const earned = live.reduce((s, o) => s + o.commission, 0);
      const reversed = live.filter((o) => o.reversed).reduce((s, o) => s + o.commission, 0);
      const pending = live.filter((o) => o.maturesAt > now()).reduce((s, o) => s + o.commission, 0);
      const matured = earned - pending - reversed;
      const held = requests.filter((q) => q.status === 'pending' || q.status === 'approved').reduce((s, q) => s + q.amount, 0);
      const paid = requests.filter((q) => q.status === 'paid').reduce((s, q) => s + q.amount, 0);
      const net = matured - held - paid;
      return { earned, reversed, pending, held, paid, available: Math.max(0, net), owed: Math.max(0, -net) };
    };

    const apply = async (s: Step) => {
      switch (s.name) {
        case 'pay': {
          const orderNo = await buy(t, buyer.token, s.goodsId, 'sandbox');
          expect((await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form })).statusCode).toBe(200);
          orders.push({ orderNo, commission: Math.floor((PRICES[s.goodsId]! * RATE) / 100), maturesAt: now() + HOLD_DAYS * DAY, refunded: false, voided: false, reversed: false });
          return;
        }
        case 'refund': {
          const open = orders.filter((o) => !o.refunded);
          if (open.length === 0) return;
          const o = open[s.pick % open.length]!;
          const res = await call(t.app, 'POST', '/api/manage/order-refund', { token: admin.token, body: { orderNo: o.orderNo, note: 'test' } });
          expect(res.status).toBe(200);
          o.refunded = true;
          if (o.maturesAt > now()) o.voided = true;
          else o.reversed = true;
          return;
        }
        case 'time': {
          t.clock.advance(s.hours * 3_600_000);
          // Keep the sessions alive (7 days sliding) however far the clock ran.
          for (const token of [admin.token, dToken, buyer.token]) expect((await call(t.app, 'GET', '/api/user', { token })).status).toBe(200);
          return;
        }
        case 'request': {
          const m = model();
          const amount =
            s.size === 'below-minimum'
              ? 1 + Math.floor(s.part * (MIN_PAYOUT - 2))
              : s.size === 'within'
                ? MIN_PAYOUT + Math.floor(s.part * Math.max(0, m.available - MIN_PAYOUT))
                : m.available + 1 + Math.floor(s.part * 499);
          const res = await call(t.app, 'POST', '/api/distribution/payoff', { token: dToken, body: { amount, method: 'bank', account: 'acct' } });
          const open = requests.some((q) => q.status === 'pending' || q.status === 'approved');
          const expected = amount < MIN_PAYOUT ? 'PAYOFF_BELOW_MINIMUM' : open ? 'PAYOFF_OPEN' : amount > m.available ? 'PAYOFF_ABOVE_AVAILABLE' : null;
          if (expected) {
            expect(res.body.code).toBe(expected);
            return;
          }
          expect(res.status).toBe(200);
          requests.push({ id: res.body.data.id, amount, status: 'pending' });
          return;
        }
        case 'decide': {
          if (requests.length === 0) return;
          const q = requests[s.pick % requests.length]!;
          const res = await call(t.app, 'POST', '/api/distribution/status', { token: admin.token, body: { id: q.id, status: s.to, note: 'n' } });
          const allowed = (s.to === 'approved' && q.status === 'pending') || (s.to === 'paid' && q.status === 'approved') || (s.to === 'rejected' && (q.status === 'pending' || q.status === 'approved'));
          if (!allowed) {
            expect(res).toMatchObject({ status: 409, body: { code: 'PAYOFF_STATE' } });
            return;
          }
          expect(res.status).toBe(200);
          q.status = s.to;
        }
      }
    };

    for (const [index, s] of sequence.entries()) {
      await apply(s);
      const m = model();
      const got = (await call(t.app, 'GET', '/api/distribution/info', { token: dToken })).body.data;
      const where = `step ${index} (${s.name})`;
      expect({ pending: got.pending, available: got.available, owed: got.owed, held: got.held, paid: got.paid }, where).toEqual({
        pending: m.pending,
        available: m.available,
        owed: m.owed,
        held: m.held,
        paid: m.paid,
      });
      expect(got.available, where).toBeGreaterThanOrEqual(0);
      expect(got.owed, where).toBeGreaterThanOrEqual(0);
      expect(got.available === 0 || got.owed === 0, where).toBe(true);
      // The ledger's own rows: what was earned (not voided) and reversed.
      const rows = await t.db.db.selectFrom('commissions').select(['kind', 'amount']).where('distributor_id', '=', dUser.id).where('voided_at', 'is', null).execute();
      const earned = rows.filter((x) => x.kind === 'earn').reduce((sum, x) => sum + Number(x.amount), 0);
      const reversed = rows.filter((x) => x.kind === 'reversal').reduce((sum, x) => sum - Number(x.amount), 0);
      expect({ earned, reversed }, where).toEqual({ earned: m.earned, reversed: m.reversed });
      expect(got.pending + got.available - got.owed + got.held + got.paid, where).toBe(earned - reversed);
    }
  }
});
