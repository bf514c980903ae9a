import { randomBytes } from 'node:crypto';
import { type ExtractQuery, type ExtractedProxyDto, newSessionId, proxyUsername } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AddressMatcher, parseAllowlistAddress } from '../../lib/allowlist-address';
import { type Clock, MINUTE, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import type { SealedBox } from '../../lib/sealed-box';
import { sha256 } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import { ExtractionRepository, type PortLease } from './extraction-repository';

export interface ExtractionOptions {
  /** The gateway as customers reach it (GATEWAY_PUBLIC_HOST and its ports). */
  host: string;
  httpPort: number;
  socksPort: number;
  /** Port endpoints per protocol (GATEWAY_PORT_RANGE_*); unset: off, and lines carry credentials. */
  ranges: { http?: [number, number]; socks5?: [number, number] };
  /** Live port leases one customer may hold per protocol (PORT_LEASES_PER_USER): past it, their oldest are reused. */
  leasesPerUser: number;
}

/** A new key's secret part: 128 random bits; `ek_` marks what it is in a pasted config. */
const newKey = (): string => `ek_${randomBytes(16).toString('hex')}`;
/** What lists show of a key: enough to tell two apart, nothing to use. */
const prefixOf = (key: string): string => key.slice(0, 9);

/**
 * Extraction links, 提取API (docs/gateway.md#extraction): a program calls a URL with its key and gets
 * proxies as lines. An account with an allowlist hands them out only to a listed caller, as bare
 * `host:port` port endpoints each leased to one sticky session; an account without one hands out
 * `user:pass@host:port` lines in the username syntax, so the same parameters give the same exit either way.
 */
export class ExtractionService {
  private readonly repo: ExtractionRepository;

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly passwords: SealedBox,
    private readonly o: ExtractionOptions,
    /** New leases reach the gateways at once: a port handed out works as soon as the API answers. */
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {
    this.repo = new ExtractionRepository(db);
  }

  /** A new key for one of the user's rotating accounts, or (null) for their static IPs; shown once. */
  async rotateKey(userId: number, accountId: number | null): Promise<string> {
    if (accountId !== null) {
      const account = await this.repo.rotatingAccount(userId, accountId);
      if (!account || account.deleted_at !== null) throw new AppError('NOT_FOUND');
    }
    const key = newKey();
    await this.repo.rotateKey(userId, accountId, sha256(key), prefixOf(key), iso(this.clock.now()));
    return key;
  }

  staticKeyPrefix(userId: number): Promise<string | null> {
    return this.repo.staticKeyPrefix(userId);
  }

  async extract(q: ExtractQuery, callerIp: string): Promise<ExtractedProxyDto[]> {
    const owner = await this.repo.ownerOf(sha256(q.key));
    if (!owner) throw new AppError('EXTRACT_KEY_INVALID');
    if (owner.user_status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    const now = this.clock.now();
    if (owner.account_id === null) return this.extractStatic(owner.user_id, q, callerIp, now);

    const account = await this.repo.rotatingAccount(owner.user_id, owner.account_id);
    if (!account || account.deleted_at !== null) throw new AppError('EXTRACT_KEY_INVALID');
    if (account.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    const capSpent = account.limit_bytes !== null && Number(account.used_bytes) >= Number(account.limit_bytes);
    if (capSpent || (await this.repo.balance(owner.user_id, iso(now))) <= 0) throw new AppError('NO_TRAFFIC');

    const listed = await this.callerListed([account.id], callerIp);
    const sessions = Array.from({ length: q.num }, () => newSessionId());
    const until = iso(new Date(now.getTime() + q.life * MINUTE));
    const region = { country: q.country ?? null, state: q.country ? (q.state ?? null) : null, city: q.country ? (q.city ?? null) : null };
    const range = this.o.ranges[q.protocol];
    if (listed && !account.require_password && range) {
      const leases = await this.repo.leasePorts(q.protocol, range, { user_id: owner.user_id, account_id: account.id, ...region, life_minutes: q.life, until }, sessions, iso(now), this.o.leasesPerUser);
      if (leases.length < q.num) throw new AppError('EXTRACT_PORTS_BUSY');
      await this.cutoffs?.publish({ userId: owner.user_id });
      return leases.map((l) => this.portLine(l, q.protocol));
    }
    const password = this.passwords.open(account.password_sealed);
    return sessions.map((session) => {
      const username = proxyUsername(account.username, q, { id: session, lifeMinutes: q.life });
      return this.credentialLine(username, password, q.protocol, { ...region, session, expiresAt: until });
    });
  }

  /**
   * The customer's active static IPs, soonest to end first: a listed caller gets each IP's own port of
   * the range (leased to the IP until it ends), anyone else its login line.
   */
  private async extractStatic(userId: number, q: ExtractQuery, callerIp: string, now: Date): Promise<ExtractedProxyDto[]> {
    const ips = (await this.repo.activeStatics(userId, iso(now))).slice(0, q.num);
    const listed = await this.callerListed(
      ips.map((s) => s.id),
      callerIp,
    );
    const range = this.o.ranges[q.protocol];
    const out: ExtractedProxyDto[] = [];
    let leased = false;
    for (const ip of ips) {
      const region = { country: ip.country.toLowerCase(), state: null, city: ip.city };
      if (listed && !ip.require_password && range) {
        let lease = await this.repo.currentLease(q.protocol, ip.id, iso(now));
        if (!lease) {
          [lease] = await this.repo.leasePorts(q.protocol, range, { user_id: userId, account_id: ip.id, ...region, life_minutes: 0, until: ip.expires_at }, [null], iso(now), this.o.leasesPerUser);
          if (!lease) throw new AppError('EXTRACT_PORTS_BUSY');
          leased = true;
        }
        out.push(this.portLine(lease, q.protocol));
      } else {
        out.push(this.credentialLine(ip.username, this.passwords.open(ip.password_sealed), q.protocol, { ...region, session: null, expiresAt: ip.expires_at }));
      }
    }
    if (leased) await this.cutoffs?.publish({ userId });
    return out;
  }

  /**
   * Whether the caller may take lines of these accounts: true when it is on their allowlist, false when
   * they have none (lines then carry the password); refused when they have one and it is not on it.
   */
  private async callerListed(accountIds: number[], callerIp: string): Promise<boolean> {
    const entries = await this.repo.allowlist(accountIds);
    if (entries.length === 0) return false;
    const matcher = new AddressMatcher<true>();
    for (const e of entries) matcher.add(parseAllowlistAddress(e.address)!, true);
    if (!matcher.match(callerIp)) throw new AppError('EXTRACT_NOT_ALLOWLISTED', { address: callerIp });
    return true;
  }

  private portLine(l: PortLease, protocol: 'http' | 'socks5'): ExtractedProxyDto {
    return {
      host: this.o.host,
      port: l.port,
      protocol,
      username: null,
      password: null,
      country: l.country?.toUpperCase() ?? null,
      state: l.state,
      city: l.city,
      session: l.session,
      expiresAt: l.until,
      line: `${this.o.host}:${l.port}`,
    };
  }

  private credentialLine(
    username: string,
    password: string,
    protocol: 'http' | 'socks5',
    r: { country: string | null; state: string | null; city: string | null; session: string | null; expiresAt: string },
  ): ExtractedProxyDto {
    const port = protocol === 'socks5' ? this.o.socksPort : this.o.httpPort;
    return { host: this.o.host, port, protocol, username, password, ...r, country: r.country?.toUpperCase() ?? null, line: `${username}:${password}@${this.o.host}:${port}` };
  }
}

