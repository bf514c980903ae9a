/**
 * What the gateway engine (listeners, tunnels, metering) needs from the rest of the product, and what
 * it reports back. The engine never touches the database: the store side implements these.
 */

/** Username parameters (docs/gateway.md#username): `ACCOUNT[-country-us][-state-ca][-city-losangeles][-session-ID][-life-MIN]`. */
export interface ProxyParams {
  account: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  state: string | null;
  city: string | null;
  /** Sticky session id; null = rotating (a new exit per connection). */
  session: string | null;
  /** Sticky lifetime in minutes (default 10, max 120). */
  lifeMinutes: number;
}

/** Why a connection is refused; each maps to a documented status (407, 402/403, 502…) in the engine. */
export type Refusal = 'BAD_CREDENTIALS' | 'BAD_PARAMS' | 'ACCOUNT_DISABLED' | 'NO_TRAFFIC' | 'ACCOUNT_CAP' | 'NO_SUPPLY' | 'STATIC_EXPIRED' | 'STATIC_RELEASED';

/**
 * A static IP's login (docs/gateway.md#static-ips): it always leaves through its one upstream, whatever
 * region or session the username names, and its bytes are metered under `country` without drawing the
 * user's traffic balance (static IPs are sold per day).
 */
export interface PinnedExit {
  exit: Exit;
  country: string | null;
}

/**
 * A refusal names the account when it exists (a wrong password), so failed logins are counted per account.
 * `username`: the account's login, for a connection admitted without one (allowlist, port lease).
 */
export type AuthResult = { ok: true; accountId: number; userId: number; username?: string; pinned?: PinnedExit } | { ok: false; reason: Refusal; accountId?: number };

/** The protocol of a listener, and of a range of port endpoints. */
export type ListenerProtocol = 'http' | 'socks5';

/**
 * A range port's sticky session (docs/gateway.md#port-endpoints), as an extraction leased it: the lease's
 * account as admitted now, and the session's parameters (null: a static IP's own port).
 */
export interface PortLeaseView {
  userId: number;
  auth: AuthResult;
  session: Omit<ProxyParams, 'account'> | null;
}

export interface GatewayAuthority {
  /** Checks a proxy account's password and standing from an in-memory cache: no I/O per connection. */
  authenticate(account: string, password: string): AuthResult;
  /**
   * A connection without credentials from `ip`: the account whose allowlist holds it (and that does not
   * require its password), admitted as `authenticate` would; else BAD_CREDENTIALS, as a wrong password.
   */
  authenticateSource(ip: string): AuthResult;
  /** The session leased on a range port now (null: none, or it has ended). */
  portLease(protocol: ListenerProtocol, port: number): PortLeaseView | null;
  /** Whether a connection admitted without credentials for `key` may go on: its address is still listed for the user. */
  sourceListed(key: { userId: number; source?: string }): boolean;
  /**
   * Reads the store again soon (coalesced and spaced out) and resolves once it has: an unknown login,
   * an unlisted address or an unleased port may have been made a moment ago on another API process.
   */
  catchUp(): Promise<void>;
  /** Whether an account may still carry traffic; null when it may. Called for live connections. */
  standing(accountId: number): Refusal | null;
  /** What an account may still carry, as the store last said (byte budgets, docs/gateway.md); null: unknown account. */
  allowance(accountId: number): Allowance | null;
  /** The last of this gateway's usage batches that every figure of `allowance` includes. */
  usageSeen(): number;
}

/**
 * An account's remaining traffic as the store last reported it. Each figure names the last of this
 * gateway's usage batches (`seq`) it includes, so the gateway subtracts exactly the bytes it metered
 * since — never a batch the figure already holds.
 */
export interface Allowance {
  /** The user's balance (shared by all the user's accounts), bytes. */
  balance: number;
  balanceSeq: number;
  /** The account's cap minus its used bytes; null: no cap. */
  capLeft: number | null;
  capSeq: number;
  /** Concurrent connections the account may hold; null: no limit. */
  maxConnections: number | null;
}

/**
 * Where a connection exits: an upstream proxy URL (http://, socks5://, with credentials) or direct.
 * `oneOff`: the URL names one connection or session (a provider template's), so connections to it are
 * not kept alive for reuse. `guarded`: the upstream itself is dialed only where direct egress may go
 * (a static IP's, docs/security.md#static-ip-upstreams); the operator's own supply is not. `providerId`: the
 * provider whose exit it is (docs/gateway.md#providers): its bytes are counted for it, its dials for its health.
 */
export type Exit = { kind: 'upstream'; url: string; id: string; oneOff?: boolean; guarded?: boolean; providerId?: number } | { kind: 'direct'; id: 'direct'; providerId?: undefined };

export interface ExitChooser {
  /**
   * Picks an exit for these parameters; sticky sessions are the chooser's to keep. `avoid`: a provider whose
   * exit just failed this request before it was answered (the one retry goes to another provider, or none).
   */
  choose(params: ProxyParams, accountId: number, avoid?: number): Exit | { refusal: 'NO_SUPPLY' };
  /** Whether another healthy provider than `avoid` serves these parameters (a failed dial would have somewhere to go). */
  servesWithout(params: ProxyParams, avoid: number): boolean;
}

/** Bytes one account moved in one hour through one country's exits since the last flush. */
export interface UsageDelta {
  accountId: number;
  userId: number;
  /** Hour bucket start, ISO 8601 UTC (`2026-11-22T13:00:00.000Z`). */
  hour: string;
  country: string | null;
  /** The provider that carried them (docs/gateway.md#providers); absent: none (a static IP, direct egress). */
  providerId?: number;
  bytesUp: number;
  bytesDown: number;
  /** A static IP's bytes: metered, and counted on the account, but not taken from the user's traffic grants. */
  noBalance?: boolean;
}

export interface UsageSink {
  /**
   * Applies one batch exactly once: `(gatewayId, seq)` identifies the batch, so a retried flush after a
   * timeout changes nothing the second time. Resolves when durable.
   */
  flush(gatewayId: string, seq: number, deltas: UsageDelta[]): Promise<void>;
}

/** Failed logins against one existing proxy account since the last report. */
export interface LoginFailureCount {
  accountId: number;
  failures: number;
  /** ms since epoch of the latest. */
  lastAt: number;
}

export interface LoginFailureSink {
  /** Adds the counts to each account's record for its owner to see. Not exactly-once: a count, not money. */
  recordLoginFailures(counts: LoginFailureCount[]): Promise<void>;
}

/** A budget several gateway processes share: a user's balance or an account's cap. */
export interface BudgetSubject {
  kind: 'user' | 'account';
  id: number;
}

/**
 * Shared byte budgets (docs/gateway.md): each gateway process reserves in the store the part of a
 * budget it may carry, so several processes together never carry more than the budget. A usage batch
 * that lands takes its bytes out of the gateway's reservations in the same transaction (`UsageSink`).
 */
export interface ReservationStore {
  /** Reserves up to `want` more bytes for this gateway; resolves with what was granted (0: none is free). */
  reserve(gatewayId: string, subject: BudgetSubject, want: number): Promise<number>;
  /** Hands back bytes this gateway reserved and no longer needs. */
  release(gatewayId: string, subject: BudgetSubject, bytes: number): Promise<void>;
  /** This gateway is alive: its reservations keep counting (they lapse without it). */
  keepAlive(gatewayId: string): Promise<void>;
  /** This gateway stops: it holds nothing any more. */
  dropAll(gatewayId: string): Promise<void>;
}
