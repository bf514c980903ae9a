/**
 * The exit chooser's cost per connection (part of `npm run bench`; also `tsx bench/exit-chooser.bench.ts [--quick]`):
 * one provider of 1,000 upstreams (the single list the gateway had before providers) against three providers of
 * 1,000 upstreams each with priorities, weights and regions, rotating and sticky, and right after a health change
 * (every cache dropped). Medians of runs, in nanoseconds per choice, after a warm-up of each case; the last column
 * puts it against 100 µs, the order of the gateway's own CPU per CONNECT tunnel in the gateway bench's table.
 */
import { pathToFileURL } from 'node:url';
import type { ProxyParams } from '../apps/server/src/gateway/ports';
import { type ExitProvider, type ExitUpstream, type HealthView, UpstreamExitChooser } from '../apps/server/src/gateway/upstream-exit-chooser';

const COUNTRIES = ['US', 'DE', 'GB', 'JP', 'SG', 'FR', 'BR', 'IN', 'CA', 'AU'];

function upstreams(provider: number, n: number): ExitUpstream[] {
  return Array.from({ length: n }, (_, i) => ({ id: `upstream-${provider}-${i}`, url: `http://u${i}:p@10.${provider}.${i >> 8}.${i & 255}:8000`, country: COUNTRIES[i % COUNTRIES.length]!, state: null, city: null }));
}

const params = (i: number, sticky: boolean): ProxyParams => ({ account: 'a', country: COUNTRIES[i % COUNTRIES.length]!, state: null, city: null, session: sticky ? `s${i % 5000}` : null, lifeMinutes: 10 });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** ns per choice over `n` choices, median of `runs`; `between` runs before each choice's batch (a health change). */
function measure(chooser: UpstreamExitChooser, sticky: boolean, n: number, runs: number, between?: () => void): number {
  for (let i = 0; i < n; i++) chooser.choose(params(i, sticky), 1 + (i % 100));
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    between?.();
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) chooser.choose(params(i, sticky), 1 + (i % 100));
    out.push(Number(process.hrtime.bigint() - started) / n);
  }
  return median(out);
}

export async function exitChooserBench(quick: boolean): Promise<void> {
  const n = quick ? 20_000 : 200_000;
  const runs = quick ? 3 : 9;
  let version = 0;
  const health: HealthView = { get version() { return version; }, providerUp: () => true, upstreamUp: () => true };
  const three: ExitProvider[] = [
    { id: 1, upstreams: upstreams(1, 1000), template: '', regions: [], priority: 1, weight: 500 },
    { id: 2, upstreams: upstreams(2, 1000), template: '', regions: COUNTRIES.slice(0, 5), priority: 1, weight: 300 },
    { id: 3, upstreams: upstreams(3, 1000), template: '', regions: [], priority: 2, weight: 200 },
  ];
  const one = new UpstreamExitChooser({ upstreams: upstreams(0, 1000) }, { health });
  const many = new UpstreamExitChooser({ providers: three }, { health });
  const rows: [string, number, number][] = [
    ['rotating', measure(one, false, n, runs), measure(many, false, n, runs)],
    ['sticky (5,000 sessions)', measure(one, true, n, runs), measure(many, true, n, runs)],
    // Each batch of 1,000 choices starts after a health change: the tiers and upstream lists are rebuilt.
    ['rotating, a health change every 1,000', measure(one, false, 1000, runs * 20, () => version++), measure(many, false, 1000, runs * 20, () => version++)],
  ];
  console.log('\nExit chooser: ns per connection (median)');
  console.log('| choice | 1 provider × 1,000 upstreams | 3 providers × 1,000 upstreams | 3 / 1 | of 100 µs |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}× | ${((b / 100_000) * 100).toFixed(2)} % |`);
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await exitChooserBench(process.argv.includes('--quick'));
