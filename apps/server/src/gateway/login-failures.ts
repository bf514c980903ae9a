import type { GatewayLog } from './gateway-log';
import type { LoginFailureCount } from './ports';

/*
 * Proxy password guessing (docs/gateway.md#connection-limits-and-failed-logins): failed logins from one IP are slowed and then refused for a
 * while, logged in aggregate (never with a password), and counted per proxy account for its owner.
 * In memory and per gateway process: a guesser spread over several gateways gets each one's allowance,
 * which still takes guessing from thousands a second to a handful a minute.
 */

export interface LoginFailurePolicy {
  /** Failures are counted over this window (from an address's first failure in it). */
  windowMs: number;
  /** From this many failures in the window, each further failure is answered `delayMs` late. */
  slowAfter: number;
  delayMs: number;
  /** At this many failures in the window, every login from the address is refused for `lockMs`. */
  lockAfter: number;
  lockMs: number;
  /** Addresses remembered at most (the least recently seen are forgotten first). */
  maxAddresses: number;
}

export const DEFAULT_LOGIN_FAILURE_POLICY: LoginFailurePolicy = {
  windowMs: 10 * 60_000,
  slowAfter: 5,
  delayMs: 1000,
  lockAfter: 20,
  lockMs: 15 * 60_000,
  maxAddresses: 50_000,
};

interface AddressRecord {
  windowStart: number;
  failures: number;
  lockedUntil: number;
  /** Since the last aggregate log line. */
  loggedFailures: number;
  refused: number;
}

type AccountLoginFailures = LoginFailureCount;

export class LoginFailures {
  /**
   * A Map in insertion order is the LRU: a touched record is re-inserted at the end and the first one is
   * the least recent. Hand-written because these few lines are all the cache needed here.
   */
  private readonly byAddress = new Map<string, AddressRecord>();
  private byAccount = new Map<number, AccountLoginFailures>();
  /** Everything refused by a lockout since start (tests, figures). */
  refusedTotal = 0;

  constructor(
    private readonly policy: LoginFailurePolicy = DEFAULT_LOGIN_FAILURE_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before checking credentials: true when `ip` is locked out (and counts the refusal). */
  locked(ip: string): boolean {
    const r = this.byAddress.get(ip);
    if (!r || r.lockedUntil <= this.now()) return false;
    r.refused++;
    this.refusedTotal++;
    return true;
  }

  /**
   * A wrong or unknown account/password from `ip` (`accountId` when the account exists). Returns how
   * long to wait before answering: 0 for the first few, then `delayMs`.
   */
  failed(ip: string, accountId: number | undefined): number {
    const now = this.now();
    let r = this.byAddress.get(ip);
    if (r) this.byAddress.delete(ip);
    if (!r || now - r.windowStart > this.policy.windowMs) {
      r = { windowStart: now, failures: 0, lockedUntil: r?.lockedUntil ?? 0, loggedFailures: r?.loggedFailures ?? 0, refused: r?.refused ?? 0 };
    }
    this.byAddress.set(ip, r);
    if (this.byAddress.size > this.policy.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value!);
    r.failures++;
    r.loggedFailures++;
    if (r.failures >= this.policy.lockAfter) {
      r.lockedUntil = now + this.policy.lockMs;
      r.failures = 0;
      r.windowStart = now;
    }
    if (accountId !== undefined) {
      const a = this.byAccount.get(accountId);
      if (a) {
        a.failures++;
        a.lastAt = now;
      } else {
        this.byAccount.set(accountId, { accountId, failures: 1, lastAt: now });
      }
    }
    return r.failures > this.policy.slowAfter || r.lockedUntil > now ? this.policy.delayMs : 0;
  }

  /** Failures per account since the last call (the gateway reports them to the store with its flush). */
  takeAccountFailures(): AccountLoginFailures[] {
    if (this.byAccount.size === 0) return [];
    const taken = [...this.byAccount.values()];
    this.byAccount = new Map();
    return taken;
  }

  /** Puts back what could not be reported, so the next report carries it. */
  restore(failures: AccountLoginFailures[]): void {
    for (const f of failures) {
      const a = this.byAccount.get(f.accountId);
      if (!a) this.byAccount.set(f.accountId, { ...f });
      else {
        a.failures += f.failures;
        a.lastAt = Math.max(a.lastAt, f.lastAt);
      }
    }
  }

  /** One aggregate line for the addresses that failed or were refused since the last one; never a password. */
  logAggregate(log: GatewayLog, top = 20): void {
    const busy: { ip: string; failures: number; refused: number; lockedUntil: string | null }[] = [];
    const now = this.now();
    for (const [ip, r] of this.byAddress) {
      if (r.loggedFailures === 0 && r.refused === 0) continue;
      busy.push({ ip, failures: r.loggedFailures, refused: r.refused, lockedUntil: r.lockedUntil > now ? new Date(r.lockedUntil).toISOString() : null });
      r.loggedFailures = 0;
      r.refused = 0;
    }
    if (busy.length === 0) return;
    busy.sort((a, b) => b.failures + b.refused - (a.failures + a.refused));
    log.warn({ addresses: busy.length, top: busy.slice(0, top) }, 'gateway: failed proxy logins');
  }
}
