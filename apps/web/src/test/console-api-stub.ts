import type {
  AlertSettingsDto,
  ApiKeyDto,
  ChannelStats,
  DistributionUserDto,
  CommissionDto,
  DistributionInfo,
  DistributionInvite,
  LoginAnalysisResponse,
  PayoffDto,
  ProviderDto,
  AdminOrderDto,
  AdminUserDto,
  BusinessDto,
  PackageDto,
  PayConfigDto,
  PaymentReviewDto,
  ProxyAccountDto,
  RegionDto,
  StaticInventoryDto,
  StaticPriceDto,
  StaticProxyDto,
  StatisticsDto,
  StaticRegionDto,
  UsageRecordPage,
  WebhookDto,
} from '@resi/contract';
import { vi } from 'vitest';
import type { TrafficSummary } from '@/api/get-traffic';
import { BYTES_PER_GB } from '@/lib/format';
import { orderFixture } from './order-fixture';
import { TEST_ENDPOINT } from './site-api-stub';

const name = (text: string) => ({ en: text, 'zh-cn': text, zh: text });
const page = <T>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

const account: ProxyAccountDto = {
  id: 1,
  username: 'scraper_one',
  password: 'Secret123',
  status: 'active',
  limitBytes: null,
  maxConnections: null,
  usedBytes: 0,
  remark: null,
  createdAt: '2026-01-01T00:00:00Z',
  loginFailures: 0,
  lastLoginFailureAt: null,
  requirePassword: false,
  pauseAtCap: true,
  extractKeyPrefix: null,
};
const region: RegionDto = { id: 1, country: 'US', state: null, city: null, name: name('United States'), poolSize: 10, sort: 0, enabled: true };
const pkg: PackageDto = { id: 2, name: name('Basic 10 GB'), bytes: 10 * BYTES_PER_GB, price: 2500, currency: 'USD', validityDays: 30, badge: null, sort: 1, enabled: true };
const loginLogs: LoginAnalysisResponse = {
  ...page([{ id: 1, at: '2026-01-01T08:00:00.000Z', userId: 2, email: 'buyer@example.com', account: 'buyer@example.com', ip: '198.51.100.7', userAgent: 'curl/8', result: 'bad-password' as const }]),
  summary: {
    from: '2026-01-01',
    to: '2026-01-01',
    days: [{ date: '2026-01-01', attempts: 1, failures: 1 }],
    topFailingIps: [{ ip: '198.51.100.7', failures: 1, accounts: 1, lastAt: '2026-01-01T08:00:00.000Z' }],
    spreadAccounts: [],
  },
};

const adminUser: AdminUserDto = {
  id: 7,
  email: 'buyer@example.com',
  account: null,
  role: 'customer',
  isDistributor: false,
  status: 'active',
  inviteCode: 'INV7',
  lang: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  lastLoginAt: null,
  referrerId: null,
  referrerEmail: null,
  channelKey: null,
  channelValue: null,
  commissionRate: null,
  remark: null,
  lastLoginIp: null,
  balanceBytes: 0,
  activeStaticIps: 0,
  paidTotal: 0,
  currency: 'USD',
};
const adminOrder: AdminOrderDto = { ...orderFixture(1), userId: 7, userEmail: 'buyer@example.com', providerRef: null, paidBy: 'webhook' };
const review: PaymentReviewDto = { id: 1, provider: 'usdt-trc20', eventId: 'evt-1', orderNo: null, amount: '12.5', asset: 'USDT', reason: 'ORDER_UNKNOWN', status: 'open', createdAt: '2026-01-01T00:00:00Z' };
const payConfig: PayConfigDto = { method: 'sandbox', enabled: true, settings: {}, secrets: {}, available: true, needsReentry: false };
const staticRegion: StaticRegionDto = { id: 1, country: 'DE', city: null, name: name('Germany'), sort: 0, enabled: true };
const business: BusinessDto = { id: 1, code: 'ecommerce', name: name('E-commerce'), sort: 0, enabled: true };
const staticPrice: StaticPriceDto = { id: 1, regionId: 1, businessId: 1, days: 30, price: 500, currency: 'USD' };
const staticProxy: StaticProxyDto = {
  id: 1,
  ip: '203.0.113.7',
  regionId: 1,
  regionName: name('Berlin'),
  country: 'DE',
  city: 'Berlin',
  businessId: 1,
  businessName: name('E-commerce'),
  isp: null,
  username: 'sabc123def',
  password: 'StaticSecret0001',
  host: 'gw.acme.example',
  httpPort: 9001,
  socksPort: 9002,
  startsAt: '2026-01-01T00:00:00Z',
  expiresAt: '2099-01-31T00:00:00Z',
  status: 'active',
  remark: null,
  replacementsLeft: 3,
  bytesToday: 2048,
  bytes30Days: 5 * 1024 ** 2,
};
const staticOrder = orderFixture(5, { orderNo: 'S20260101000000000005', kind: 'static', items: [{ type: 'static', name: name('Germany'), regionId: 1, businessId: 1, business: name('E-commerce'), quantity: 1, days: 30, unitPrice: 500 }], amount: 500 });
const provider: ProviderDto = {
  id: 1,
  name: 'Supplier One',
  template: '',
  upstreams: [{ url: 'http://user:****@us1.supplier.example:8000', country: 'US', state: null, city: null }],
  regions: ['US'],
  priority: 1,
  weight: 100,
  costPerGb: { amount: 150, currency: 'USD', from: '2026-01-01' },
  costs: [{ amount: 150, currency: 'USD', from: '2026-01-01' }],
  monthlyQuotaGb: null,
  status: 'enabled',
  health: { state: 'up', successRate: 0.98, connectP50Ms: 120, connectP95Ms: 340, attempts: 50, lastProbeAt: null, probeLatencyMs: null, probeCountry: null, countryMismatch: false, lastError: null, since: null },
  usage: { bytesToday: 2048, bytesMonth: 4096 },
};
const staticRow: StaticInventoryDto = {
  id: 1,
  ip: '203.0.113.5',
  regionId: 1,
  businessIds: [],
  isp: 'Example ISP',
  protocol: 'http',
  upstream: 'http://user:••••@203.0.113.5:8000',
  status: 'free',
  cooldownUntil: null,
  remark: null,
  costPerMonth: 0,
  currency: 'USD',
  holder: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const usageRecord: UsageRecordPage = {
  ...page([{ bucket: '2026-01-07', accountId: 1, username: 'scraper_one', accountDeleted: false, staticIp: null, country: 'US', bytesUp: 1024, bytesDown: 3072 }]),
  totals: { bytesUp: 1024, bytesDown: 3072 },
};
const traffic: TrafficSummary = {
  balanceBytes: 7 * BYTES_PER_GB,
  runsOutAt: null,
  usedBytes: 3 * BYTES_PER_GB,
  grants: [{ id: 1, orderNo: 'D20260101000000000001', bytes: 10 * BYTES_PER_GB, usedBytes: 3 * BYTES_PER_GB, expiresAt: '2099-02-01T00:00:00Z', createdAt: '2026-01-01T00:00:00Z' }],
  series: [{ bucket: '2026-01-07', bytesUp: BYTES_PER_GB, bytesDown: BYTES_PER_GB }],
  byCountry: [{ country: 'US', bytes: 2 * BYTES_PER_GB }],
  byAccount: [{ accountId: 1, username: 'scraper_one', bytes: 2 * BYTES_PER_GB }],
};

const distributionInfo: DistributionInfo = {
  inviteCode: 'INV1',
  inviteLink: 'https://console.test/manage/user/register?invite=INV1',
  rate: 10,
  referrals: 3,
  payingReferrals: 1,
  currency: 'USD',
  pending: 250,
  available: 1250,
  owed: 0,
  held: 0,
  paid: 500,
  minPayout: 1000,
  payoutMethods: ['usdt-trc20', 'bank'],
};
const distributionInvite: DistributionInvite = {
  inviteCode: 'INV1',
  inviteLink: distributionInfo.inviteLink,
  links: [{ channelKey: 'hz', channelValue: 'spring', url: `${distributionInfo.inviteLink}&hz=spring`, visits: 4, registrations: 1 }],
};
const commission: CommissionDto = {
  id: 1,
  distributorId: 1,
  orderNo: 'D20260101000000000001',
  buyerEmail: 'buyer@example.com',
  orderAmount: 2500,
  rate: 10,
  amount: 250,
  currency: 'USD',
  state: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  availableAt: '2026-01-08T00:00:00Z',
  voidedAt: null,
};
const payoff: PayoffDto = {
  id: 1,
  distributorId: 1,
  distributorEmail: 'admin@example.com',
  amount: 500,
  currency: 'USD',
  method: 'bank',
  account: 'IBAN DE00 1234',
  status: 'paid',
  note: null,
  txRef: 'TX-42',
  decidedBy: 1,
  createdAt: '2026-01-02T00:00:00Z',
  updatedAt: '2026-01-03T00:00:00Z',
  approvedAt: '2026-01-02T12:00:00Z',
  paidAt: '2026-01-03T00:00:00Z',
  rejectedAt: null,
  earned: 1500,
  earnedFromCreatedAccounts: 0,
};

/** The data part of a healthy answer to each GET the console's pages make. */
const figures = (revenue: number) => ({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-02T10:00:00.000Z', registrations: 2, orders: 3, revenue, payingUsers: 2 });
const growth = { registrations: 0, orders: 0.5, revenue: 0.25, payingUsers: null };
const statistics: StatisticsDto = {
  currency: 'USD',
  from: '2026-01-01',
  to: '2026-01-02',
  groupBy: 'day',
  rows: [
    { period: '2026-01-01', registrations: 1, payingUsers: 1, newPayingUsers: 1, orders: 1, revenue: 2500, refunds: 0, commission: 0, trafficBytes: 2048 },
    { period: '2026-01-02', registrations: 2, payingUsers: 2, newPayingUsers: 1, orders: 3, revenue: 12345, refunds: 500, commission: 0, trafficBytes: 0 },
  ],
  totals: { registrations: 3, payingUsers: 2, newPayingUsers: 2, orders: 4, revenue: 14845, refunds: 500, commission: 0, trafficBytes: 2048 },
  byPayMethod: [{ payMethod: 'sandbox', orders: 4, revenue: 14845, refunds: 500 }],
  byKind: [{ kind: 'dynamic', orders: 4, revenue: 14845, refunds: 500 }],
  trafficByCountry: [{ country: 'US', bytes: 2048 }],
  topBySpend: [{ userId: 7, email: 'buyer@example.com', orders: 4, revenue: 14845 }],
  topByTraffic: [{ userId: 7, email: 'buyer@example.com', bytes: 2048 }],
  summary: { today: { current: figures(12345), previous: figures(9876), growth }, thisMonth: { current: figures(14845), previous: figures(11876), growth } },
  margin: {
    rows: [{ period: '2026-01-01', kind: 'rotating', region: 'US', providerId: 1, providerName: 'Supplier One', bytes: BYTES_PER_GB, revenue: 250, cost: 150, margin: 100, revenuePerGb: 250, costPerGb: 150, marginPerGb: 100 }],
    totals: { bytes: BYTES_PER_GB, revenue: 250, cost: 150, margin: 100, revenuePerGb: 250, costPerGb: 150, marginPerGb: 100 },
  },
};

const referral: DistributionUserDto = {
  id: 21,
  email: 'referred@example.com',
  account: null,
  remark: 'From the forum',
  status: 'active',
  disabledBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  distributorId: 1,
  distributorEmail: 'admin@example.com',
  paidOrders: 2,
  paidAmount: 5000,
  commission: 500,
  currency: 'USD',
};
const channelStats: ChannelStats = {
  from: '2026-01-01',
  to: '2026-01-02',
  currency: 'USD',
  rows: [
    { day: '2026-01-01', channelKey: 'qd', channelValue: 'spring', visits: 10, registrations: 2, payingUsers: 1, orders: 1, revenue: 2500 },
    { day: '2026-01-02', channelKey: 'hz', channelValue: 'forum', visits: 5, registrations: 1, payingUsers: 0, orders: 0, revenue: 0 },
  ],
  totals: { visits: 15, registrations: 3, payingUsers: 1, orders: 1, revenue: 2500 },
};

const apiKey: ApiKeyDto = {
  id: 1,
  name: 'price scraper',
  prefix: 'rk_live_ab12',
  scopes: ['read'],
  expiresAt: null,
  allowlist: [],
  dailySpendCap: null,
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: null,
  lastUsedIp: null,
  callsToday: 0,
  spentToday: 0,
};

const alertSettings: AlertSettingsDto = { balanceBytesLeft: [BYTES_PER_GB], balancePercentLeft: [], accountCapPercent: [80, 100] };
const webhook: WebhookDto = { id: 1, url: 'https://hooks.example.com/resi', events: ['order.paid'], enabled: true, createdAt: '2026-01-01T00:00:00Z' };

const ANSWERS: Record<string, unknown> = {
  '/api/site': { appName: 'Acme Proxy', supportUrl: '', tutorialUrl: '', links: { knowledgeBase: null, faq: null, blog: null, toolbox: null }, payMethods: ['sandbox'] },
  '/api/captcha': { id: 'c1', svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
  '/api/traffic': traffic,
  '/api/record/dynamic-order': page([orderFixture(1)]),
  '/api/record/order': page([orderFixture(1)]),
  '/api/record/usage': usageRecord,
  '/api/proxy/dynamic': { items: [account] },
  '/api/proxy/endpoint': TEST_ENDPOINT,
  '/api/region': { items: [region] },
  '/api/proxy/static': page([staticProxy]),
  '/api/proxy/allowlist': { items: [], callerAddress: '203.0.113.5' },
  '/api/proxy/static/extract-key': { prefix: null },
  '/api/business': { items: [business] },
  '/api/static-region': { items: [{ ...staticRegion, stock: [{ businessId: 1, available: 4 }] }] },
  '/api/record/static-order': page([staticOrder]),
  '/api/goods': { packages: [pkg], staticPrices: [] },
  '/api/user/api-keys': { items: [apiKey] },
  '/api/user/alerts': alertSettings,
  '/api/user/webhooks': { items: [webhook] },
  '/api/pay/methods': { methods: ['sandbox'] },
  '/api/manage/order': page([adminOrder]),
  '/api/manage/user': page([adminUser]),
  '/api/manage/logs': loginLogs,
  '/api/manage/statistics': statistics,
  '/api/manage/payment-review': page([review]),
  '/api/manage/pay-config': { methods: [payConfig] },
  '/api/manage/goods': { items: [pkg] },
  '/api/manage/region': { items: [region] },
  '/api/manage/static-region': { items: [staticRegion] },
  '/api/manage/business': { items: [business] },
  '/api/manage/static-price': { items: [staticPrice] },
  '/api/manage/static-inventory': page([staticRow]),
  '/api/manage/static-inventory/board': { items: [{ regionId: 1, businessId: null, counts: { free: 1, reserved: 0, allocated: 0, grace: 0, cooldown: 0, retired: 0 } }] },
  '/api/manage/providers': { items: [provider] },
  '/api/distribution/user': page([referral]),
  '/api/distribution/channel': channelStats,
  '/api/distribution/info': distributionInfo,
  '/api/distribution/invite': distributionInvite,
  '/api/distribution/commission': page([commission]),
  '/api/distribution/payoff': page([payoff]),
  '/api/manage/distribution-settings': { defaultRate: 10, holdDays: 7, minPayout: 1000, payoutMethods: ['usdt-trc20'], commissionOnCreatedAccounts: false },
  '/api/manage/supply': { directEgress: false, checkUrl: 'https://probe.supplier.example/json', probeSeconds: 60 },
};

/** What every request gets while the server is down: a 500 in the API's error shape (docs/api.md). */
export const SERVER_FAULT = 'The server failed (test).';

/**
 * `fetch` for whole pages: every request answers 500 until `recover()`, then each GET gets its ANSWERS
 * entry. `asked` lists the paths requested; `unknown` the ones without an answer (a test should fail on them).
 */
export function stubConsoleApi() {
  const state = { down: true, asked: [] as string[], unknown: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      state.asked.push(path);
      if (state.down) return Response.json({ code: 'INTERNAL', message: SERVER_FAULT }, { status: 500 });
      if (!(path in ANSWERS)) {
        state.unknown.push(path);
        return Response.json({ code: 'NOT_FOUND', message: 'not found' }, { status: 404 });
      }
      return Response.json({ data: ANSWERS[path] });
    }),
  );
  return {
    get asked(): readonly string[] {
      return state.asked;
    },
    get unknown(): readonly string[] {
      return state.unknown;
    },
    recover(): void {
      state.down = false;
    },
  };
}
