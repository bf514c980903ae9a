import type { SupplySettings } from '@resi/contract';
import type { Kysely } from 'kysely';
import { performance } from 'node:perf_hooks';
import type { SecureContextOptions } from 'node:tls';
import type { Database } from '../../../db/schema';
import { type Clock, addMs, iso } from '../../../lib/clock';
import type { SupplyProvider } from '../provider-repository';
import { exitCountry, requestCheck } from './check-request';
import { type ProbeDial, dialThroughUpstream } from './probe-dial';
import { type ProbeExit, probeExit } from './probe-exits';
import { type HealthRow, type ProbeFacts, ProviderHealthRepository } from './provider-health-repository';

/** A probe's whole budget: the dial through the provider and the check URL's answer. */
export const PROBE_TIMEOUT_MS = 10_000;
/** Probes in flight at once in one run. */
export const PROBE_CONCURRENCY = 8;
/** The first pause before a down provider is tried again; it doubles up to RETRY_MAX_MS (`retryPauseMs`). */
export const RETRY_MIN_MS = 30_000;
export const RETRY_MAX_MS = 5 * 60_000;

/**
 * How long a down provider rests before its next retry: as long as it has been down, from 30 s to 5 min. A
 * provider down since t is retried at about t+30 s, t+60 s, t+120 s, t+240 s, then every 5 min: the pause
 * doubles without a counter to keep.
 */
export function retryPauseMs(downSince: string, now: Date): number {
  const down = now.getTime() - Date.parse(downSince);
  return Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, Number.isFinite(down) ? down : 0));
}

/** Why a provider is probed in this run, or null when it is not due. */
export function dueReason(row: HealthRow | undefined, settings: Pick<SupplySettings, 'checkUrl' | 'probeSeconds'>, now: Date): 'retry' | 'scheduled' | null {
  if (row?.state === 'down') return row.retry_at === null || Date.parse(row.retry_at) <= now.getTime() ? 'retry' : null;
  if (settings.checkUrl === '') return null;
  if (!row?.last_probe_at) return 'scheduled';
  return Date.parse(row.last_probe_at) + settings.probeSeconds * 1000 <= now.getTime() ? 'scheduled' : null;
}

export interface ProberDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The enabled providers with their exits (ProviderRepository.supply). */
  providers: { supply(): Promise<SupplyProvider[]> };
  /** The check URL and the pace (SupplySettingsRepository.get). */
  settings: { get(): Promise<SupplySettings> };
  log: { warn(obj: object, msg: string): void };
  /** How a probe reaches the check URL through an upstream; default: `dialThroughUpstream`. */
  dial?: ProbeDial;
  /** More CAs to accept for an https check URL (tests). */
  trust?: SecureContextOptions['ca'];
  timeoutMs?: number;
}

/** What one run did, for the job's caller and tests. */
export interface ProbeRun {
  probed: number[];
  /** Providers put back up (a retry passed, or the pause ended without a check URL). */
  restored: number[];
  /** Providers an active probe took down. */
  takenDown: number[];
}

interface Verdict {
  pass: boolean;
  facts: ProbeFacts;
}

/**
 * The active prober (docs/gateway.md#active-probes). The gateways take a provider out when its breaker trips;
 * only this job puts one back. Each run probes the enabled providers that are due: a down one whose pause is
 * over, and every other one each `probeSeconds` when a check URL is set. A probe `GET`s the check URL through one
 * exit of the provider (its exits in turn across runs, never a direct dial) and passes on a 2xx answer; the
 * answer's country is compared with the one the exit stands for. A failing probe takes an up provider out only
 * while the check URL is known to answer (`checkAnswers`). Run as a leased job: one process at a time.
 */
export class ProviderProber {
  private readonly health: ProviderHealthRepository;
  private readonly dial: ProbeDial;
  private readonly timeoutMs: number;
  /** Each provider's next exit to probe through; lost on restart or a move of the lease, which only restarts the turn. */
  private readonly turns = new Map<number, number>();
  /** When a probe last passed in this process (clock ms): the check URL answers (`checkAnswers`). */
  private lastPassAt = -Infinity;

  constructor(private readonly d: ProberDeps) {
    this.health = new ProviderHealthRepository(d.db);
    this.dial = d.dial ?? dialThroughUpstream;
    this.timeoutMs = d.timeoutMs ?? PROBE_TIMEOUT_MS;
  }

  async runDue(): Promise<ProbeRun> {
    const [providers, rows, stored] = await Promise.all([this.d.providers.supply(), this.health.rows(), this.d.settings.get()]);
    const check = this.checkUrl(stored.checkUrl);
    const settings = { ...stored, checkUrl: check ? stored.checkUrl : '' };
    const now = this.d.clock.now();
    const byId = new Map(rows.map((r) => [r.provider_id, r]));
    const run: ProbeRun = { probed: [], restored: [], takenDown: [] };
    const due: SupplyProvider[] = [];
    for (const p of providers) {
      const row = byId.get(p.id);
      if (dueReason(row, settings, now) === null) continue;
      if (check) due.push(p);
      // Nothing to probe against: the pause is the whole test, and real traffic its trial (the breaker trips again).
      else if (row && (await this.health.putUp(p.id, row.since, iso(now), null))) run.restored.push(p.id);
    }
    if (!check) return run;
    const verdicts: { p: SupplyProvider; verdict: Verdict }[] = [];
    await eachBounded(due, PROBE_CONCURRENCY, async (p) => {
      try {
        verdicts.push({ p, verdict: await this.probe(p, check) });
      } catch (err) {
        this.d.log.warn({ err, providerId: p.id }, 'provider probe: could not probe');
      }
    });
    const answering = this.checkAnswers(verdicts.some((v) => v.verdict.pass), settings.probeSeconds);
    if (!answering && verdicts.some((v) => !v.verdict.pass && byId.get(v.p.id)?.state !== 'down')) {
      this.d.log.warn({ checkUrl: stored.checkUrl }, 'provider probe: no probe passes lately, the check URL may be failing; no provider taken out');
    }
    for (const { p, verdict } of verdicts) {
      try {
        run.probed.push(p.id);
        const change = await this.record(p.id, byId.get(p.id), verdict, answering);
        if (change === 'up') run.restored.push(p.id);
        if (change === 'down') run.takenDown.push(p.id);
      } catch (err) {
        this.d.log.warn({ err, providerId: p.id }, 'provider probe: could not record');
      }
    }
    return run;
  }

  /**
   * Whether the check URL is known to answer: some probe passed in this run or within the last two periods. A
   * check service that is down or limits the operator (429) fails every probe; taking every provider out for it
   * would stop all traffic, so then a failing probe is only recorded, and the breakers stay the judges.
   */
  private checkAnswers(passedNow: boolean, probeSeconds: number): boolean {
    const now = this.d.clock.now().getTime();
    if (passedNow) this.lastPassAt = now;
    return this.lastPassAt >= now - 2 * probeSeconds * 1000;
  }

  /** The check URL, or null when none is set or it cannot be parsed (then probing is as without one, and said). */
  private checkUrl(stored: string): URL | null {
    if (stored === '') return null;
    try {
      return new URL(stored);
    } catch (err) {
      this.d.log.warn({ err, checkUrl: stored }, 'provider probe: the check URL is not a URL; probing as without one');
      return null;
    }
  }

  /** Probes one exit of the provider: the verdict and the facts to record. */
  private async probe(p: SupplyProvider, url: URL): Promise<Verdict> {
    const turn = this.turns.get(p.id) ?? 0;
    this.turns.set(p.id, turn + 1);
    const exit = probeExit(p, turn);
    const started = performance.now();
    const failed = (reason: string, ms: number | null = null): Verdict => ({ pass: false, facts: this.facts(ms, null, 0, reason) });
    if (!exit) return failed('NO_EXIT');
    if (exit.url === null) return failed('TEMPLATE_UNUSABLE');
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const dialed = await this.dial(exit.url, host, port, this.timeoutMs);
    if ('failure' in dialed) return failed(dialed.failure);
    let headMs: number | null = null;
    const left = Math.max(1, this.timeoutMs - (performance.now() - started));
    const answer = await requestCheck(dialed.socket, url, left, () => (headMs = Math.round(performance.now() - started)), this.d.trust);
    if ('failure' in answer) return failed(answer.failure, headMs);
    if (answer.status < 200 || answer.status > 299) return failed(`HTTP ${answer.status}`, headMs);
    return this.judgeCountry(exit, exitCountry(answer.body), headMs);
  }

  /** A pass; flagged when the exit is not in the country it stands for (a wrong tag, or a template ignoring the region). */
  private judgeCountry(exit: ProbeExit, country: string | null, ms: number | null): Verdict {
    const mismatch = exit.asked !== null && country !== null && exit.asked !== country;
    return { pass: true, facts: this.facts(ms, country, mismatch ? 1 : 0, mismatch ? 'COUNTRY_MISMATCH' : null) };
  }

  private facts(ms: number | null, country: string | null, mismatch: number, error: string | null): ProbeFacts {
    return { last_probe_at: iso(this.d.clock.now()), probe_ms: ms, probe_country: country, country_mismatch: mismatch, last_error: error?.slice(0, 200) ?? null };
  }

  /** Writes the verdict; answers the state change it made, if any. `answering`: a failure may take the provider out. */
  private async record(providerId: number, row: HealthRow | undefined, v: Verdict, answering: boolean): Promise<'up' | 'down' | null> {
    const now = this.d.clock.now();
    const at = iso(now);
    if (row?.state === 'down') {
      if (v.pass && (await this.health.putUp(providerId, row.since, at, v.facts))) return 'up';
      if (!v.pass && (await this.health.postpone(providerId, row.since, iso(addMs(now, retryPauseMs(row.since, now))), v.facts))) return null;
    } else if (!v.pass && answering && (await this.health.takeDown(providerId, at, iso(addMs(now, RETRY_MIN_MS)), v.facts))) {
      return 'down';
    }
    // A pass of an up provider, a failure while the check URL is in doubt, or a row a gateway changed
    // meanwhile: its state stands, the probe is recorded.
    await this.health.recordProbe(providerId, at, v.facts);
    return null;
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachBounded<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
