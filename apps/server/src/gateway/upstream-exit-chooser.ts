import { createHash, randomBytes } from 'node:crypto';
import type { Exit, ExitChooser, ProxyParams } from './ports';
import { assertTemplate, renderTemplate } from '../shared/provider-template';

/** An upstream proxy with its region tags (as the store lists them). */
export interface ExitUpstream {
  id: string;
  /** `http://user:pass@host:port` or `socks5://…`. */
  url: string;
  /** ISO 3166-1 alpha-2, upper case; null = untagged (serves only requests without a region). */
  country: string | null;
  state?: string | null;
  city?: string | null;
}

export interface ExitSupply {
  upstreams?: readonly ExitUpstream[];
  /** Provider template (see provider-template.ts); used when no listed upstream matches. */
  template?: string | null;
  /** Demo only: traffic leaves from the gateway host itself when nothing else serves the request. */
  direct?: boolean;
  /** Whether direct egress also serves requests that name a region (it cannot honour them). Default false. */
  directServesRegions?: boolean;
}

export interface UpstreamExitChooserOptions {
  now?: () => number;
  /** Session ids for rotating template exits. */
  randomId?: () => string;
  /** Sticky sessions kept at most; the oldest go first beyond it. */
  maxSessions?: number;
}

interface Sticky {
  exit: Exit;
  /** The template an exit was rendered from (a changed template must not keep old credentials). */
  template: string | null;
  expiresAt: number;
}

const DIRECT: Exit = { kind: 'direct', id: 'direct' };
const NO_SUPPLY = { refusal: 'NO_SUPPLY' } as const;
const SWEEP_EVERY = 60_000;

/**
 * Reference exit chooser over a fixed supply (the store side feeds it from the database with
 * `update`). Rotating: each connection takes the next matching upstream in turn (round-robin per
 * region), or a fresh template session. Sticky: account + session + region keep their exit for
 * `lifeMinutes` from first use; then the session moves to another exit when there is one.
 *
 * A sticky exit is not drawn from this process's state but derived from the session (account, session
 * id, region) and the lifetime window it is taken in — `life`-long windows counted from the Unix epoch —
 * so every gateway instance, and a restarted one, gives a session the same exit (the same upstream, or
 * the same provider session id) and moves it to the same next one; consecutive windows never share an
 * upstream. Memory only keeps the hold: `lifeMinutes` from the first use this instance saw.
 */
export class UpstreamExitChooser implements ExitChooser {
  private upstreams: readonly ExitUpstream[] = [];
  private byId = new Map<string, ExitUpstream>();
  private byRegion = new Map<string, ExitUpstream[]>();
  private template: string | null = null;
  private direct = false;
  private directServesRegions = false;
  private readonly turns = new Map<string, number>();
  private readonly sticky = new Map<string, Sticky>();
  private nextSweep = 0;
  private readonly now: () => number;
  private readonly randomId: () => string;
  private readonly maxSessions: number;

  constructor(supply: ExitSupply, opts: UpstreamExitChooserOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.randomId = opts.randomId ?? (() => randomBytes(8).toString('hex'));
    this.maxSessions = opts.maxSessions ?? 1_000_000;
    this.update(supply);
  }

  /** Replaces the supply; sticky sessions whose exit is still offered keep it. */
  update(supply: ExitSupply): void {
    if (supply.template) assertTemplate(supply.template);
    this.upstreams = supply.upstreams ?? [];
    this.byId = new Map(this.upstreams.map((u) => [u.id, u]));
    this.byRegion = new Map();
    this.template = supply.template || null;
    this.direct = supply.direct ?? false;
    this.directServesRegions = supply.directServesRegions ?? false;
  }

  choose(params: ProxyParams, accountId: number): Exit | { refusal: 'NO_SUPPLY' } {
    const region = `${params.country ?? ''}|${params.state ?? ''}|${params.city ?? ''}`;
    if (params.session === null) return this.pick(params, region, (m) => this.nextTurn(region, m), this.randomId) ?? NO_SUPPLY;

    const now = this.now();
    const key = `${accountId}|${params.session}|${region}`;
    const held = this.sticky.get(key);
    if (held && now < held.expiresAt && this.offered(held)) return held.exit;
    this.sweep(now);
    const lifeMs = params.lifeMinutes * 60_000;
    const window = Math.floor(now / lifeMs);
    const spot = sessionSpot(key);
    const exit = this.pick(params, region, (m) => m[(spot + window) % m.length]!, () => stickyId(key, window));
    if (!exit) {
      this.sticky.delete(key);
      return NO_SUPPLY;
    }
    this.sticky.delete(key);
    this.sticky.set(key, { exit, template: this.template, expiresAt: now + params.lifeMinutes * 60_000 });
    if (this.sticky.size > this.maxSessions) this.sticky.delete(this.sticky.keys().next().value as string);
    return exit;
  }

  /** Sticky sessions currently held (for tests and metrics). */
  get sessions(): number {
    return this.sticky.size;
  }

  /** A matching upstream (`upstream` picks among them), else the template with `session`, else direct egress. */
  private pick(params: ProxyParams, region: string, upstream: (matches: ExitUpstream[]) => ExitUpstream, session: () => string): Exit | null {
    const matches = this.matching(params, region);
    if (matches.length > 0) {
      const u = upstream(matches);
      return { kind: 'upstream', id: u.id, url: u.url };
    }
    if (this.template) {
      const url = renderTemplate(this.template, { ...params, session: session(), life: params.lifeMinutes });
      if (url) return { kind: 'upstream', id: 'template', url, oneOff: true };
    }
    const hasRegion = params.country !== null;
    if (this.direct && (!hasRegion || this.directServesRegions)) return DIRECT;
    return null;
  }

  private nextTurn(region: string, matches: ExitUpstream[]): ExitUpstream {
    const turn = this.turns.get(region) ?? 0;
    this.turns.set(region, (turn + 1) % matches.length);
    return matches[turn % matches.length]!;
  }

  private matching(params: ProxyParams, region: string): ExitUpstream[] {
    let list = this.byRegion.get(region);
    if (!list) {
      list = this.upstreams.filter(
        (u) =>
          (params.country === null || u.country === params.country) &&
          (params.state === null || u.state === params.state) &&
          (params.city === null || u.city === params.city),
      );
      this.byRegion.set(region, list);
    }
    return list;
  }

  private offered({ exit, template }: Sticky): boolean {
    if (exit.kind === 'direct') return this.direct;
    if (exit.id === 'template') return this.template !== null && this.template === template;
    return this.byId.get(exit.id)?.url === exit.url;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY;
    for (const [key, s] of this.sticky) if (s.expiresAt <= now) this.sticky.delete(key);
  }
}

/** A provider session id that is stable for one sticky session and lifetime window, and reveals neither. */
function stickyId(key: string, window: number): string {
  return createHash('sha256').update(`${key}|${window}`).digest('hex').slice(0, 16);
}

/** Where a sticky session starts in the list of matching upstreams: the same on every instance. */
function sessionSpot(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6);
}
