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

/** An upstream provider (docs/gateway.md#providers): a list of upstreams, a template, or both. */
export interface ExitProvider {
  id: number;
  upstreams: readonly ExitUpstream[];
  /** Provider template (provider-template.ts); used when no listed upstream matches. '' = none. */
  template: string;
  /** Countries served; empty = every region. */
  regions: readonly string[];
  /** 1 first: a lower tier serves a region only while no provider of a higher one is healthy for it. */
  priority: number;
  weight: number;
}

export interface ExitSupply {
  providers?: readonly ExitProvider[];
  /** Shorthand for one provider without an id (not metered per provider, no health): the engine's own tests. */
  upstreams?: readonly ExitUpstream[];
  template?: string | null;
  /** Demo only: traffic leaves from the gateway host itself when nothing else serves the request. */
  direct?: boolean;
  /** Whether direct egress also serves requests that name a region (it cannot honour them). Default false. */
  directServesRegions?: boolean;
}

/** Which providers and upstreams may be chosen now (provider-health.ts); `version` changes with the answers. */
export interface HealthView {
  readonly version: number;
  providerUp(providerId: number): boolean;
  upstreamUp(upstreamId: string): boolean;
}

const ALL_UP: HealthView = { version: 0, providerUp: () => true, upstreamUp: () => true };

export interface UpstreamExitChooserOptions {
  now?: () => number;
  /** Session ids for rotating template exits. */
  randomId?: () => string;
  /** Sticky sessions kept at most; the oldest go first beyond it. */
  maxSessions?: number;
  health?: HealthView;
}

interface Sticky {
  exit: Exit;
  /** The template an exit was rendered from (a changed template must not keep old credentials). */
  template: string | null;
  expiresAt: number;
}

/** A provider as the chooser keeps it: its matching upstreams cached per region. */
interface Source {
  id: number | undefined;
  key: string;
  /** The id of its template exits. */
  templateId: string;
  upstreams: readonly ExitUpstream[];
  template: string | null;
  regions: ReadonlySet<string> | null;
  priority: number;
  weight: number;
  byRegion: Map<string, ExitUpstream[]>;
}

/** The providers that serve a region now: the best tier's, with smooth weighted round-robin state. */
interface Tier {
  sources: Source[];
  current: number[];
  total: number;
}

const DIRECT: Exit = { kind: 'direct', id: 'direct' };
const NO_SUPPLY = { refusal: 'NO_SUPPLY' } as const;
const SWEEP_EVERY = 60_000;

/**
 * Chooses the exit of each connection among the providers (docs/gateway.md#providers):
 * - the providers that serve the request's region and are healthy (`HealthView`), those of the best
 *   priority only; among them by weight — rotating connections by smooth weighted round-robin (nginx's:
 *   exact proportions, evenly interleaved), sticky sessions by weighted rendezvous hashing of the session,
 *   so a provider going down moves only its own sessions, and every instance moves them alike;
 * - within the provider, a matching upstream (round-robin per region, or the session's spot), else its
 *   template with a session id; direct egress (demo) when nothing serves.
 *
 * A sticky exit is not drawn from this process's state but derived from the session (account, session
 * id, region) and the lifetime window it is taken in — `life`-long windows counted from the Unix epoch —
 * so every gateway instance, and a restarted one, gives a session the same exit and moves it to the same
 * next one; consecutive windows never share an upstream of one provider. Memory only keeps the hold:
 * `lifeMinutes` from the first use this instance saw, while the exit's provider stays healthy.
 */
export class UpstreamExitChooser implements ExitChooser {
  private sources: Source[] = [];
  private signature = '';
  private byId = new Map<string, { source: Source; upstream: ExitUpstream }>();
  private tiers = new Map<string, Tier | null>();
  private tiersVersion = -1;
  private direct = false;
  private directServesRegions = false;
  private readonly turns = new Map<string, number>();
  private readonly sticky = new Map<string, Sticky>();
  private nextSweep = 0;
  private readonly now: () => number;
  private readonly randomId: () => string;
  private readonly maxSessions: number;
  private readonly health: HealthView;

  constructor(supply: ExitSupply, opts: UpstreamExitChooserOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.randomId = opts.randomId ?? (() => randomBytes(8).toString('hex'));
    this.maxSessions = opts.maxSessions ?? 1_000_000;
    this.health = opts.health ?? ALL_UP;
    this.update(supply);
  }

  /** Replaces the supply; sticky sessions whose exit is still offered keep it. The same supply again changes nothing (the store re-reads it every few seconds). */
  update(supply: ExitSupply): void {
    const signature = JSON.stringify(supply);
    if (signature === this.signature) return;
    this.signature = signature;
    const providers: Array<Omit<ExitProvider, 'id'> & { id: number | undefined }> = [...(supply.providers ?? [])];
    if ((supply.upstreams?.length ?? 0) > 0 || supply.template) {
      providers.push({ id: undefined, upstreams: supply.upstreams ?? [], template: supply.template ?? '', regions: [], priority: 1, weight: 1 });
    }
    for (const p of providers) if (p.template) assertTemplate(p.template);
    this.sources = providers.map((p) => ({
      id: p.id,
      key: String(p.id ?? ''),
      templateId: p.id === undefined ? 'template' : `template-${p.id}`,
      upstreams: p.upstreams,
      template: p.template || null,
      regions: p.regions.length > 0 ? new Set(p.regions) : null,
      priority: p.priority,
      weight: p.weight,
      byRegion: new Map(),
    }));
    this.byId = new Map(this.sources.flatMap((source) => source.upstreams.map((upstream) => [upstream.id, { source, upstream }] as const)));
    this.tiers.clear();
    this.direct = supply.direct ?? false;
    this.directServesRegions = supply.directServesRegions ?? false;
  }

  /** `avoid`: a provider that just failed this request (a retry goes elsewhere, or nowhere). */
  choose(params: ProxyParams, accountId: number, avoid?: number): Exit | { refusal: 'NO_SUPPLY' } {
    const region = `${params.country ?? ''}|${params.state ?? ''}|${params.city ?? ''}`;
    if (params.session === null) {
      const source = this.rotatingSource(params, region, avoid);
      return (source ? this.exitOf(source, params, region, (m) => this.nextTurn(`${source.key}|${region}`, m), this.randomId) : this.fallback(params, avoid)) ?? NO_SUPPLY;
    }

    const now = this.now();
    const key = `${accountId}|${params.session}|${region}`;
    const held = this.sticky.get(key);
    if (held && now < held.expiresAt && this.offered(held) && (avoid === undefined || held.exit.providerId !== avoid)) return held.exit;
    this.sweep(now);
    const window = Math.floor(now / (params.lifeMinutes * 60_000));
    const source = this.stickySource(params, region, `${key}|${window}`, avoid);
    const spot = sessionSpot(key);
    const exit = source ? this.exitOf(source, params, region, (m) => m[(spot + window) % m.length]!, () => stickyId(key, window)) : this.fallback(params, avoid);
    this.sticky.delete(key);
    if (!exit) return NO_SUPPLY;
    this.sticky.set(key, { exit, template: source?.template ?? null, expiresAt: now + params.lifeMinutes * 60_000 });
    if (this.sticky.size > this.maxSessions) this.sticky.delete(this.sticky.keys().next().value as string);
    return exit;
  }

  servesWithout(params: ProxyParams, avoid: number): boolean {
    return this.tierOf(params, `${params.country ?? ''}|${params.state ?? ''}|${params.city ?? ''}`, avoid) !== null;
  }

  /** Sticky sessions currently held (for tests and metrics). */
  get sessions(): number {
    return this.sticky.size;
  }

  /** The next provider of the region's tier by smooth weighted round-robin (nginx): each gains its weight, the largest is chosen and pays the total. */
  private rotatingSource(params: ProxyParams, region: string, avoid: number | undefined): Source | null {
    const tier = this.tierOf(params, region, avoid);
    if (!tier) return null;
    if (tier.sources.length === 1) return tier.sources[0]!;
    let best = 0;
    for (let i = 0; i < tier.sources.length; i++) {
      tier.current[i]! += tier.sources[i]!.weight;
      if (tier.current[i]! > tier.current[best]!) best = i;
    }
    tier.current[best]! -= tier.total;
    return tier.sources[best]!;
  }

  /** Weighted rendezvous hashing: the provider with the highest `-weight / ln(h)` for this session and window. */
  private stickySource(params: ProxyParams, region: string, session: string, avoid: number | undefined): Source | null {
    const tier = this.tierOf(params, region, avoid);
    if (!tier) return null;
    if (tier.sources.length === 1) return tier.sources[0]!;
    let best: Source | null = null;
    let bestScore = -Infinity;
    for (const s of tier.sources) {
      const score = -s.weight / Math.log(unitHash(`${session}|${s.key}`));
      if (score > bestScore) {
        bestScore = score;
        best = s;
      }
    }
    return best;
  }

  /** The healthy providers of the best priority that can serve the region, cached until the supply or health changes. */
  private tierOf(params: ProxyParams, region: string, avoid: number | undefined): Tier | null {
    if (this.tiersVersion !== this.health.version) {
      this.tiers.clear();
      for (const s of this.sources) s.byRegion.clear();
      this.tiersVersion = this.health.version;
    }
    const cacheKey = avoid === undefined ? region : `${region}|-${avoid}`;
    let tier = this.tiers.get(cacheKey);
    if (tier !== undefined) return tier;
    const serving = this.sources.filter(
      (s) =>
        (avoid === undefined || s.id !== avoid) &&
        (s.id === undefined || this.health.providerUp(s.id)) &&
        (params.country === null || s.regions === null || s.regions.has(params.country)) &&
        (s.template !== null || this.matching(s, params, region).length > 0),
    );
    const top = Math.min(...serving.map((s) => s.priority));
    const sources = serving.filter((s) => s.priority === top);
    tier = sources.length === 0 ? null : { sources, current: sources.map(() => 0), total: sources.reduce((n, s) => n + s.weight, 0) };
    // Bounded: regions are what usernames name (country, state, city), and a pathological spread just re-computes.
    if (this.tiers.size > 10_000) this.tiers.clear();
    this.tiers.set(cacheKey, tier);
    return tier;
  }

  /** The provider's matching upstream (`pick` chooses among them), else its template rendered with `session`. */
  private exitOf(source: Source, params: ProxyParams, region: string, pick: (matches: ExitUpstream[]) => ExitUpstream, session: () => string): Exit | null {
    const matches = this.matching(source, params, region);
    const providerId = source.id === undefined ? {} : { providerId: source.id };
    if (matches.length > 0) {
      const u = pick(matches);
      return { kind: 'upstream', id: u.id, url: u.url, ...providerId };
    }
    if (source.template) {
      const url = renderTemplate(source.template, { ...params, session: session(), life: params.lifeMinutes });
      if (url) return { kind: 'upstream', id: source.templateId, url, oneOff: true, ...providerId };
    }
    return null;
  }

  private fallback(params: ProxyParams, avoid: number | undefined): Exit | null {
    if (avoid !== undefined) return null;
    const hasRegion = params.country !== null;
    return this.direct && (!hasRegion || this.directServesRegions) ? DIRECT : null;
  }

  private nextTurn(key: string, matches: ExitUpstream[]): ExitUpstream {
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, (turn + 1) % matches.length);
    return matches[turn % matches.length]!;
  }

  /** The provider's upstreams tagged for the region and not taken out by their own breaker. */
  private matching(source: Source, params: ProxyParams, region: string): ExitUpstream[] {
    let list = source.byRegion.get(region);
    if (!list) {
      list = source.upstreams.filter(
        (u) =>
          (params.country === null || u.country === params.country) &&
          (params.state === null || u.state === params.state) &&
          (params.city === null || u.city === params.city) &&
          this.health.upstreamUp(u.id),
      );
      source.byRegion.set(region, list);
    }
    return list;
  }

  private offered({ exit, template }: Sticky): boolean {
    if (exit.kind === 'direct') return this.direct;
    if (exit.providerId !== undefined && !this.health.providerUp(exit.providerId)) return false;
    if (exit.id.startsWith('template')) {
      const source = this.sources.find((s) => s.templateId === exit.id);
      return source !== undefined && source.template === template;
    }
    const listed = this.byId.get(exit.id);
    return listed?.upstream.url === exit.url && this.health.upstreamUp(exit.id);
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

/** A hash of `s` as a number in (0, 1), for rendezvous scores. */
function unitHash(s: string): number {
  return (createHash('sha256').update(s).digest().readUIntBE(0, 6) + 1) / (2 ** 48 + 2);
}
