import { envelope, errorBody, trafficResponse, usageQuery } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import { runOutAt } from './run-out';
import { usageBuckets } from './usage-buckets';
import type { TrafficRepository, UsageRepository } from './traffic-repository';

const PACE_DAYS = 7;

/** `GET /traffic`: balance = sum of the unexpired remainders, plus the usage charts' data. */
export const trafficRoutes: FastifyPluginAsyncZod<{ traffic: TrafficRepository; usage: UsageRepository; clock: Clock }> = async (app, { traffic, usage, clock }) => {
  app.get(
    '/traffic',
    { config: { access: 'customer' }, schema: { security: keyScope('read'), tags: ['traffic'], querystring: usageQuery, response: { 200: envelope(trafficResponse), 400: errorBody, 401: errorBody } } },
    async (request) => {
      const { user } = currentAuth(request);
      const q = request.query;
      const now = clock.now();
      const [grants, balanceBytes] = await Promise.all([traffic.liveGrants(user.id, iso(now)), traffic.balance(user.id, iso(now))]);
      const buckets = usageBuckets(now, q.days, q.granularity);
      const since = q.granularity === 'hour' ? buckets[0]! : `${buckets[0]!}T00:00:00.000Z`;
      // The pace of the last 7 days, by the hour (usage is kept by the hour): what the run-out date projects.
      const weekAgo = `${iso(addMs(now, -PACE_DAYS * DAY)).slice(0, 13)}:00:00.000Z`;
      const [rows, countries, accounts, lastWeek] = await Promise.all([
        usage.series(user.id, since, q.granularity, q.accountId),
        usage.byCountry(user.id, since, q.accountId),
        usage.byAccount(user.id, since, q.accountId),
        usage.rotatingBytesSince(user.id, weekAgo),
      ]);
      const runsOut = runOutAt(
        now.getTime(),
        lastWeek / (now.getTime() - Date.parse(weekAgo)),
        grants.map((g) => ({ left: Number(g.bytes) - Number(g.used_bytes), expiresAt: Date.parse(g.expires_at) })),
      );
      const found = new Map(rows.map((r) => [r.bucket, r]));
      return {
        data: {
          balanceBytes,
          usedBytes: await traffic.usedBytes(user.id),
          runsOutAt: runsOut === null ? null : new Date(runsOut).toISOString(),
          grants: grants.map((g) => ({
            id: g.id,
            orderNo: g.order_no,
            bytes: Number(g.bytes),
            usedBytes: Number(g.used_bytes),
            expiresAt: g.expires_at,
            createdAt: g.created_at,
          })),
          // Every bucket of the window, empty ones as zero, so charts need no gap handling.
          series: buckets.map((bucket) => ({ bucket, bytesUp: Number(found.get(bucket)?.bytes_up ?? 0), bytesDown: Number(found.get(bucket)?.bytes_down ?? 0) })),
          byCountry: countries.map((c) => ({ country: c.country || null, bytes: Number(c.bytes) })),
          byAccount: accounts.map((a) => ({ accountId: a.account_id, username: a.username, bytes: Number(a.bytes) })),
        },
      };
    },
  );
};

