import {
  type CommissionDto,
  type DistributionUserDto,
  channelStats as channelStatsDto,
  channelStatsQuery,
  channelVisitBody,
  commissionDto,
  commissionQuery,
  distributionInfo,
  distributionInvite,
  distributionSettings,
  distributionUserDto,
  distributionUserQuery,
  envelope,
  errorBody,
  pageOf,
  payoffBody,
  payoffDto,
  payoffQuery,
  payoffStatusBody,
  saveDistributionUserBody,
} from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRow } from '../../db/rows';
import { type Clock, iso } from '../../lib/clock';
import { hmac } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import { currentAuth } from '../../shared/request-context';
import type { UserRepository } from '../auth/user-repository';
import { sendCsv } from '../exports/csv';
import { channelCsvColumns, channelCsvRows } from './channel-csv';
import { channelRange, channelStats } from './channel-stats';
import type { CommissionRepository, LedgerEntry } from './commission-repository';
import type { CommissionService } from './commission-service';
import type { DistributionRepository, ReferralRow, Scope } from './distribution-repository';
import type { PayoffRepository } from './payoff-repository';
import { type PayoffService, toPayoffDto } from './payoff-service';
import type { ReferralService } from './referral-service';
import type { DistributionSettingsService } from './settings-service';

export interface DistributionRouteDeps {
  clock: Clock;
  currency: string;
  publicUrl: string;
  distribution: DistributionRepository;
  commission: CommissionService;
  ledger: CommissionRepository;
  payoffs: PayoffRepository;
  payoffService: PayoffService;
  referrals: ReferralService;
  users: UserRepository;
  settings: DistributionSettingsService;
  /** The key channel landings' addresses are hashed with. */
  visitorKey: string;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const isAdmin = (u: UserRow) => u.role === 'admin';

const toReferralDto = (r: ReferralRow, currency: string): DistributionUserDto => ({
  id: r.id,
  email: r.email,
  account: r.account,
  remark: r.distributor_remark,
  status: r.status,
  // Rows disabled before `disabled_by` was kept count as the admin's (docs/business-rules.md#referred-users).
  disabledBy: r.status === 'disabled' ? (r.disabled_by ?? 'admin') : null,
  createdAt: r.created_at,
  distributorId: r.referrer_id,
  distributorEmail: r.distributor_email,
  paidOrders: r.paid_orders,
  paidAmount: r.paid_amount,
  commission: r.commission,
  currency,
});

const toCommissionDto = (r: LedgerEntry): CommissionDto => ({
  id: r.id,
  distributorId: r.distributor_id,
  orderNo: r.order_no,
  buyerEmail: r.buyer_email,
  orderAmount: r.order_amount,
  rate: r.rate,
  amount: r.amount,
  currency: r.currency,
  state: r.state,
  createdAt: r.created_at,
  availableAt: r.available_at,
  voidedAt: r.voided_at,
});

/**
 * Distribution (docs/api.md#distribution): distributors see and manage only their own referrals, links and
 * payoffs; admins (who pass the `distributor` policy too) see everyone's and decide payoffs.
 */
export const distributionRoutes: FastifyPluginAsyncZod<DistributionRouteDeps> = async (app, d) => {
  const tags = ['distribution'];
  const distributor = { access: 'distributor' as const };
  const inviteLinkOf = (code: string) => `${d.publicUrl.replace(/\/$/, '')}/manage/user/register?invite=${encodeURIComponent(code)}`;
  /**
   * Whose rows a list shows: a distributor always their own (naming another distributor is "not found");
   * an admin everyone's, or the one distributor asked for.
   */
  const scopeOf = (user: UserRow, distributorId: number | undefined): Scope => {
    if (isAdmin(user)) return distributorId ?? null;
    if (distributorId !== undefined && distributorId !== user.id) throw new AppError('NOT_FOUND');
    return user.id;
  };

  app.get('/distribution/info', { config: distributor, schema: { tags, response: { 200: envelope(distributionInfo), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const [settings, counts, balances] = await Promise.all([
      d.distribution.settings(),
      d.distribution.referralCounts(user.id),
      d.commission.balances(user.id, d.currency, d.clock.now()),
    ]);
    return {
      data: {
        inviteCode: user.invite_code,
        inviteLink: inviteLinkOf(user.invite_code),
        rate: d.commission.rateOf(user, settings.defaultRate),
        referrals: counts.referrals,
        payingReferrals: counts.paying,
        currency: d.currency,
        ...balances,
        minPayout: settings.minPayout,
        payoutMethods: settings.payoutMethods,
      },
    };
  });

  app.get('/distribution/invite', { config: distributor, schema: { tags, response: { 200: envelope(distributionInvite), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const link = inviteLinkOf(user.invite_code);
    const { visits, registrations } = await d.distribution.linkCounts(user.id);
    const links = new Map<string, { channelKey: 'hz' | 'yl' | 'qd'; channelValue: string; url: string; visits: number; registrations: number }>();
    const entry = (key: string, value: string) => {
      const k = `${key}\u0000${value}`;
      let e = links.get(k);
      if (!e) {
        e = { channelKey: key as 'hz' | 'yl' | 'qd', channelValue: value, url: `${link}&${key}=${encodeURIComponent(value)}`, visits: 0, registrations: 0 };
        links.set(k, e);
      }
      return e;
    };
    for (const v of visits) entry(v.channel_key, v.channel_value).visits += v.n;
    for (const r of registrations) entry(r.channel_key, r.channel_value).registrations += r.n;
    const sorted = [...links.values()].sort((a, b) => b.visits - a.visits || b.registrations - a.registrations || a.url.localeCompare(b.url));
    return { data: { inviteCode: user.invite_code, inviteLink: link, links: sorted } };
  });

  app.get(
    '/distribution/user',
    { config: distributor, schema: { tags, querystring: distributionUserQuery, response: { 200: envelope(pageOf(distributionUserDto)), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const q = request.query;
      const { items, total } = await d.distribution.referralPage(scopeOf(user, q.distributorId), { email: q.email, status: q.status }, q.page, q.pageSize);
      return { data: { items: items.map((r) => toReferralDto(r, d.currency)), total, page: q.page, pageSize: q.pageSize } };
    },
  );

  app.post(
    '/distribution/saveuser',
    { config: distributor, schema: { tags, body: saveDistributionUserBody, response: { 200: envelope(z.object({ id: z.number().int() })), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const id = await d.referrals.save(user, request.body, { ip: request.ip, lang: request.lang });
      return { data: { id }, message: request.t('messages.saved') };
    },
  );

  app.get(
    '/distribution/commission',
    { config: distributor, schema: { tags, querystring: commissionQuery, response: { 200: envelope(pageOf(commissionDto)), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const q = request.query;
      const filter = { distributorId: scopeOf(user, q.distributorId), state: q.state };
      const { items, total } = await d.ledger.page(filter, iso(d.clock.now()), q.page, q.pageSize);
      return { data: { items: items.map(toCommissionDto), total, page: q.page, pageSize: q.pageSize } };
    },
  );

  app.get(
    '/distribution/payoff',
    { config: distributor, schema: { tags, querystring: payoffQuery, response: { 200: envelope(pageOf(payoffDto)), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const q = request.query;
      const scope = scopeOf(user, q.distributorId);
      const { items, total } = await d.payoffs.page({ distributorId: scope ?? undefined, status: q.status }, q.page, q.pageSize);
      return { data: { items: items.map(toPayoffDto), total, page: q.page, pageSize: q.pageSize } };
    },
  );

  app.post('/distribution/payoff', { config: distributor, schema: { tags, body: payoffBody, response: { 200: envelope(payoffDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    return { data: await d.payoffService.request(user.id, request.body), message: request.t('messages.payoffRequested') };
  });

  app.post(
    '/distribution/status',
    { config: { access: 'admin' }, schema: { tags, body: payoffStatusBody, response: { 200: envelope(payoffDto), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      return { data: await d.payoffService.decide(request.body, { id: user.id, ip: request.ip }), message: request.t('messages.saved') };
    },
  );

  app.get(
    '/distribution/channel',
    { config: { ...distributor, export: 'channels' }, schema: { tags, querystring: channelStatsQuery, response: { 200: envelope(channelStatsDto), ...errors } } },
    async (request, reply) => {
      const { user } = currentAuth(request);
      const range = channelRange(request.query, d.clock.now());
      if ('invalid' in range) throw new AppError('VALIDATION_FAILED', { detail: request.t(range.invalid, { days: range.days ?? 0 }) });
      const stats = await channelStats(d.distribution, isAdmin(user) ? null : user.id, request.query, range, d.currency);
      if (request.csvExport) return sendCsv(request, reply, channelCsvColumns, channelCsvRows(stats, request.t('csv.channels.total')));
      return { data: stats };
    },
  );

  app.get(
    '/manage/distribution-settings',
    { config: { access: 'admin' }, schema: { tags: ['admin'], response: { 200: envelope(distributionSettings), ...errors } } },
    async () => ({ data: await d.distribution.settings() }),
  );

  app.post(
    '/manage/distribution-settings',
    { config: { access: 'admin' }, schema: { tags: ['admin'], body: distributionSettings, response: { 200: envelope(distributionSettings), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      return { data: await d.settings.save(request.body, { id: user.id, ip: request.ip }), message: request.t('messages.saved') };
    },
  );

  // Public: the console reports a landing through a channel link once per browser session.
  app.post(
    '/channel/visit',
    { config: { access: 'public', limit: 'channel-visit' }, schema: { tags, body: channelVisitBody, response: { 200: envelope(z.object({})), 400: errorBody, 429: errorBody } } },
    async (request) => {
      const b = request.body;
      // An unknown invite code still counts the landing, unattributed: the visitor did arrive.
      const referrer = b.inviteCode ? await d.users.findByInviteCode(b.inviteCode) : undefined;
      // Once per address, channel and day, so reloading or replaying the report does not inflate a channel;
      // the address is kept only as a keyed hash. A repeat still answers success and tells the caller nothing.
      const visitor = hmac(d.visitorKey, request.ip);
      await d.distribution.recordVisit({ channelKey: b.channelKey, channelValue: b.channelValue, referrerId: referrer?.id ?? null, visitor, at: iso(d.clock.now()) });
      return { data: {} };
    },
  );
};
