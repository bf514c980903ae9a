import type { ColumnType, Generated } from 'kysely';
import type { LoginResult, STATIC_EVENTS, StaticInventoryStatus, StaticProxyStatus, WebhookDeliveryStatus, WebhookEvent } from '@resi/contract';

/** Times are ISO 8601 UTC strings on both dialects, so rows compare and sort the same everywhere. */
type Timestamp = string;

export interface UserTable {
  id: Generated<number>;
  email: string;
  account: string | null;
  password_hash: string;
  role: 'customer' | 'admin';
  is_distributor: ColumnType<number, number | undefined, number>;
  status: 'active' | 'disabled';
  invite_code: string;
  referrer_id: number | null;
  channel_key: string | null;
  channel_value: string | null;
  lang: string;
  created_at: Timestamp;
  last_login_at: Timestamp | null;
  /** The admins' note about the user. */
  remark: ColumnType<string | null, string | null | undefined, string | null>;
  /** A distributor's own commission, in percent; null = the shop's default. */
  commission_rate: ColumnType<number | null, number | null | undefined, number | null>;
  /** Stamped by the store's triggers on every change the gateway's cache reads (docs/gateway.md); never written by code. */
  /** The user's first payment (docs/data-model.md#statistics-roll-ups); kept by a trigger on orders, never written by code. */
  first_paid_at: ColumnType<Timestamp | null, never, never>;
  change_version: ColumnType<number | null, never, never>;
  /** The referring distributor's own note about this user (`POST /distribution/saveuser`). */
  distributor_remark: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who disabled the user (docs/business-rules.md#referred-users): a distributor lifts only their own; null while active. */
  disabled_by: ColumnType<DisabledBy | null, DisabledBy | null | undefined, DisabledBy | null>;
  /** The distributor who created this customer with saveuser, without a mail code (docs/business-rules.md#commission). */
  created_by: ColumnType<number | null, number | null | undefined, never>;
}

export type DisabledBy = 'admin' | 'distributor';

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface CaptchaTable {
  id: string;
  answer_hash: string;
  expires_at: Timestamp;
}

export interface MailCodeTable {
  id: Generated<number>;
  email: string;
  purpose: string;
  code_hash: string;
  tries: number;
  ip: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface LoginLogTable {
  id: Generated<number>;
  user_id: number | null;
  account: string;
  ip: string | null;
  user_agent: string | null;
  result: LoginResult;
  created_at: Timestamp;
}

/** An address an account proved itself from (signed in, registered, reset its password): docs/business-rules.md#login. */
export interface LoginAddressTable {
  user_id: number;
  ip: string;
  last_at: Timestamp;
}

type Flag = ColumnType<number, number | undefined, number>;

export interface PackageTable {
  id: Generated<number>;
  name_en: string;
  name_zh_cn: string;
  name_zh: string;
  bytes: number;
  price: number;
  currency: string;
  validity_days: number;
  badge: string | null;
  sort: number;
  enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RegionTable {
  id: Generated<number>;
  country: string;
  state: string | null;
  city: string | null;
  name_en: string;
  name_zh_cn: string;
  name_zh: string;
  pool_size: number;
  sort: number;
  enabled: Flag;
}

export interface StaticRegionTable {
  id: Generated<number>;
  country: string;
  city: string | null;
  name_en: string;
  name_zh_cn: string;
  name_zh: string;
  sort: number;
  enabled: Flag;
}

export interface BusinessTable {
  id: Generated<number>;
  code: string;
  name_en: string;
  name_zh_cn: string;
  name_zh: string;
  sort: number;
  enabled: Flag;
}

export interface StaticPriceTable {
  id: Generated<number>;
  region_id: number;
  business_id: number;
  days: number;
  price: number;
  currency: string;
}

export interface OrderTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  kind: 'dynamic' | 'static' | 'static-renew' | 'manual-recharge';
  /** JSON of OrderItemDto[]. */
  items: string;
  amount: number;
  currency: string;
  pay_method: string | null;
  /** JSON of the PaymentInstruction. */
  payment: string | null;
  pay_amount: number | null;
  pay_currency: string | null;
  provider_ref: string | null;
  status: 'pending' | 'paid' | 'cancelled' | 'expired' | 'refunded';
  paid_by: string | null;
  note: string | null;
  created_by: number | null;
  /** The API key that placed the order (its daily spending cap), null from the console. */
  api_key_id: ColumnType<number | null, number | null | undefined, never>;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TrafficGrantTable {
  id: Generated<number>;
  user_id: number;
  order_id: number | null;
  bytes: number;
  used_bytes: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  created_at: Timestamp;
  /** Stamped by the store's triggers on every change the gateway's cache reads (docs/gateway.md); never written by code. */
  change_version: ColumnType<number | null, never, never>;
}

export interface PaymentEventTable {
  id: Generated<number>;
  provider: string;
  event_id: string;
  order_no: string | null;
  amount: string;
  asset: string;
  result: 'credited' | 'duplicate' | 'review' | 'rejected';
  reason: string | null;
  review_status: 'open' | 'resolved' | null;
  payload: string | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
}

export interface IntentionLogTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  goods_id: number | null;
  pay_method: string | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target: string;
  before: string | null;
  after: string | null;
  ip: string | null;
  created_at: Timestamp;
}

export interface PayConfigTable {
  method: string;
  enabled: Flag;
  settings: string;
  secrets: string | null;
  updated_at: Timestamp;
}

export interface ExportTicketTable {
  ticket_hash: string;
  user_id: number;
  /** The session that asked for it: the ticket is spent only while that session lives. */
  session_id: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ProxyAccountTable {
  id: Generated<number>;
  user_id: number;
  username: string;
  password_sealed: string;
  status: 'active' | 'disabled';
  limit_bytes: number | null;
  used_bytes: ColumnType<number, number | undefined, number>;
  /** Failed proxy logins against this account, added by the gateways. */
  login_failures: ColumnType<number, number | undefined, number>;
  last_login_failure_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Concurrent gateway connections allowed; null = the operator's default (or none). */
  max_connections: ColumnType<number | null, number | null | undefined, number | null>;
  /** `rotating` (the customer's own sub-account) or `static` (the login of one static allocation). */
  kind: ColumnType<'rotating' | 'static', 'rotating' | 'static' | undefined, never>;
  remark: string | null;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Stamped by the store's triggers on every change the gateway's cache reads (docs/gateway.md); never written by code. */
  change_version: ColumnType<number | null, never, never>;
  /** Allowlisted addresses must still send the password (docs/gateway.md#allowlist). */
  require_password: Flag;
  /** 1: refused at its cap until raised; 0: the cap only alerts (docs/business-rules.md#usage-alerts). */
  pause_at_cap: Flag;
}

/** An address (one IP or a CIDR) that may use a proxy account without its password (docs/gateway.md#allowlist). */
export interface AllowlistEntryTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  /** As the customer sees it: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/64`. */
  address: string;
  /** First and last address of the range, 32 hex digits (IPv4 mapped into IPv6): overlaps compare as text. */
  range_start: string;
  range_end: string;
  label: string | null;
  created_at: Timestamp;
}

/** An extraction key, stored hashed: one per proxy account, and one for a customer's static IPs (`account_id` null). */
export interface ExtractKeyTable {
  key_hash: string;
  user_id: number;
  account_id: number | null;
  prefix: string;
  created_at: Timestamp;
}

/** A customer's API key (docs/api.md#programs); `scopes` comma-separated, `allowlist` a JSON array. */
export interface ApiKeyTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  allowlist: string;
  daily_spend_cap: number | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
}

/** A customer's alert thresholds (docs/business-rules.md#usage-alerts), JSON arrays of numbers. */
export interface AlertSettingsTable {
  user_id: number;
  balance_bytes_left: string;
  balance_percent_left: string;
  account_cap_percent: string;
  updated_at: Timestamp;
}

/** A threshold crossed and not re-armed yet; `subject_id` the proxy account of a cap, 0 for the balance. */
export interface AlertCrossingTable {
  user_id: number;
  kind: 'balance.bytesLeft' | 'balance.percentLeft' | 'balance.empty' | 'account.cap';
  subject_id: number;
  threshold: number;
  crossed_at: Timestamp;
}

/** What the console shows a customer until read: one per crossing. */
export interface NoticeTable {
  id: Generated<number>;
  user_id: number;
  kind: AlertCrossingTable['kind'];
  threshold: number;
  balance_bytes: number | null;
  account_id: number | null;
  account_username: string | null;
  used_bytes: number | null;
  limit_bytes: number | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

/** Requests per API key and UTC day. */
export interface ApiKeyDayTable {
  key_id: number;
  day: string;
  calls: number;
}

/** A customer's webhook endpoint (docs/api.md#webhooks); `events` comma-separated, the secret sealed. */
export interface WebhookEndpointTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  events: string;
  secret_sealed: string;
  enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One event for one endpoint: the outbox row and its delivery log (docs/api.md#webhooks). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  event: WebhookEvent;
  event_id: string;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  last_attempt_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  last_status_code: ColumnType<number | null, number | null | undefined, number | null>;
  last_response: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  replay_of: ColumnType<number | null, number | null | undefined, never>;
  created_at: Timestamp;
  delivered_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** Events emitted once only, by a key naming what they report (a static IP's coming expiry). */
export interface WebhookEventKeyTable {
  event_key: string;
  created_at: Timestamp;
}

/** A gateway port of the ranges carrying one account's sticky session until `until` (docs/gateway.md#port-endpoints). */
export interface PortLeaseTable {
  protocol: 'http' | 'socks5';
  port: number;
  user_id: number;
  account_id: number;
  country: string | null;
  state: string | null;
  city: string | null;
  /** null: a static IP's port (its one exit). */
  session: string | null;
  life_minutes: number;
  until: Timestamp;
}

export interface UsageHourlyTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  hour: Timestamp;
  country: string;
  bytes_up: number;
  bytes_down: number;
}

/** Bytes per UTC day, user and exit country, kept beside the hourly rows by every flush (docs/data-model.md#statistics-roll-ups). */
export interface UsageDailyTable {
  day: string;
  user_id: number;
  country: string;
  bytes_up: number;
  bytes_down: number;
}

export interface UsageFlushTable {
  gateway_id: string;
  seq: number;
  created_at: Timestamp;
}

/** What one gateway process holds of a budget: `kind` 'user' (balance) or 'account' (cap). */
export interface GatewayReservationTable {
  gateway_id: string;
  kind: 'user' | 'account';
  subject_id: number;
  bytes: number;
  expires_at: Timestamp;
}

/** A lease on a named thing (a background job, a provider poll): held by `holder` until `expires_at`. */
export interface JobLeaseTable {
  name: string;
  holder: string;
  expires_at: Timestamp;
}

export interface UpstreamTable {
  id: Generated<number>;
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password_sealed: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  enabled: Flag;
  remark: string | null;
  /** The provider whose list this upstream is in (docs/gateway.md#providers). */
  provider_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProviderTable {
  id: Generated<number>;
  name: string;
  template: string;
  /** Countries served, comma-separated; '' = every region. */
  regions: string;
  priority: number;
  weight: number;
  monthly_quota_gb: number | null;
  status: 'enabled' | 'paused';
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProviderCostTable {
  id: Generated<number>;
  provider_id: number;
  /** Per GB, minor units. */
  amount: number;
  currency: string;
  /** UTC date from which this cost applies. */
  from_day: string;
  created_at: Timestamp;
}

export interface ProviderUsageDailyTable {
  day: string;
  provider_id: number;
  /** Exit country asked for; '' = none. */
  country: string;
  bytes: number;
  /** What customers paid for these bytes, millionths of a minor unit. */
  revenue_micro: number;
}

export interface ProviderHealthTable {
  provider_id: number;
  state: 'up' | 'down' | 'probing';
  since: Timestamp;
  /** A down provider is tried again (probed) from then. */
  retry_at: Timestamp | null;
  last_error: string | null;
  last_probe_at: Timestamp | null;
  probe_ms: number | null;
  probe_country: string | null;
  country_mismatch: Flag;
  /** The state admins were last mailed about. */
  notified_state: ColumnType<'up' | 'down' | 'probing', string | undefined, string>;
  /** The month (`YYYY-MM`) admins were mailed that 80 % of the quota was used. */
  quota_notified_month: string | null;
}

export interface ProviderWindowTable {
  provider_id: number;
  gateway_id: string;
  attempts: number;
  failures: number;
  /** Connect latencies of the window's successful dials: JSON counts per bucket (provider-health.ts). */
  histogram: string;
  updated_at: Timestamp;
}

export interface StaticInventoryTable {
  id: Generated<number>;
  exit_ip: string;
  region_id: number;
  isp: string | null;
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password_sealed: string | null;
  status: ColumnType<StaticInventoryStatus, StaticInventoryStatus | undefined, StaticInventoryStatus>;
  order_id: number | null;
  cooldown_until: Timestamp | null;
  remark: string | null;
  /** What the IP costs the operator per month, minor units (docs/business-rules.md#margin). */
  cost_month: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StaticAllocationTable {
  id: Generated<number>;
  user_id: number;
  /** The allocation's gateway login: a proxy account of kind `static`. */
  account_id: number;
  inventory_id: number;
  region_id: number;
  business_id: number;
  order_id: number | null;
  status: ColumnType<StaticProxyStatus, StaticProxyStatus | undefined, StaticProxyStatus>;
  starts_at: Timestamp;
  expires_at: Timestamp;
  released_at: Timestamp | null;
  remark: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StaticInventoryBusinessTable {
  inventory_id: number;
  business_id: number;
}

export interface StaticInventoryEventTable {
  id: Generated<number>;
  inventory_id: number;
  event: (typeof STATIC_EVENTS)[number];
  user_id: number | null;
  allocation_id: number | null;
  order_id: number | null;
  actor_id: number | null;
  reason: string | null;
  at: Timestamp;
}

export interface SettingTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** One line of the commission ledger (docs/business-rules.md#commission): balances are sums of these rows. */
export interface CommissionTable {
  id: Generated<number>;
  distributor_id: number;
  order_id: number;
  buyer_id: number;
  kind: 'earn' | 'reversal';
  amount: number;
  currency: string;
  rate: number;
  available_at: Timestamp;
  voided_at: Timestamp | null;
  created_at: Timestamp;
}

export interface PayoffRequestTable {
  id: Generated<number>;
  distributor_id: number;
  amount: number;
  currency: string;
  method: string;
  account: string;
  status: 'pending' | 'approved' | 'paid' | 'rejected';
  note: string | null;
  tx_ref: string | null;
  decided_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  approved_at: Timestamp | null;
  paid_at: Timestamp | null;
  rejected_at: Timestamp | null;
}

export interface ChannelVisitTable {
  id: Generated<number>;
  channel_key: string;
  channel_value: string;
  referrer_id: number | null;
  /** `YYYY-MM-DD` (UTC) of `created_at`. */
  day: string;
  created_at: Timestamp;
  /** A keyed hash of the landing's address: one per address, channel and day (null on rows from before it was kept). */
  visitor: ColumnType<string | null, string | null | undefined, never>;
}

/** SQLite only: the counter its change versions are taken from (PostgreSQL uses transaction ids). */
export interface ChangeClockTable {
  id: number;
  version: number;
}

export interface Database {
  users: UserTable;
  sessions: SessionTable;
  captchas: CaptchaTable;
  mail_codes: MailCodeTable;
  login_logs: LoginLogTable;
  login_addresses: LoginAddressTable;
  packages: PackageTable;
  regions: RegionTable;
  static_regions: StaticRegionTable;
  businesses: BusinessTable;
  static_prices: StaticPriceTable;
  orders: OrderTable;
  traffic_grants: TrafficGrantTable;
  payment_events: PaymentEventTable;
  intention_logs: IntentionLogTable;
  audit_logs: AuditLogTable;
  pay_configs: PayConfigTable;
  export_tickets: ExportTicketTable;
  proxy_accounts: ProxyAccountTable;
  usage_hourly: UsageHourlyTable;
  usage_daily: UsageDailyTable;
  usage_flushes: UsageFlushTable;
  gateway_reservations: GatewayReservationTable;
  job_leases: JobLeaseTable;
  upstreams: UpstreamTable;
  settings: SettingTable;
  static_inventory: StaticInventoryTable;
  static_allocations: StaticAllocationTable;
  static_inventory_businesses: StaticInventoryBusinessTable;
  static_inventory_events: StaticInventoryEventTable;
  change_clock: ChangeClockTable;
  commissions: CommissionTable;
  payoff_requests: PayoffRequestTable;
  channel_visits: ChannelVisitTable;
  allowlist_entries: AllowlistEntryTable;
  extract_keys: ExtractKeyTable;
  port_leases: PortLeaseTable;
  api_keys: ApiKeyTable;
  api_key_days: ApiKeyDayTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_event_keys: WebhookEventKeyTable;
  providers: ProviderTable;
  provider_costs: ProviderCostTable;
  provider_usage_daily: ProviderUsageDailyTable;
  provider_health: ProviderHealthTable;
  provider_windows: ProviderWindowTable;
  alert_settings: AlertSettingsTable;
  alert_crossings: AlertCrossingTable;
  notices: NoticeTable;
}
