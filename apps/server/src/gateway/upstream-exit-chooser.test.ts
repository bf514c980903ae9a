import { describe, expect, it } from 'vitest';
import type { Exit, ProxyParams } from './ports';
import { renderTemplate } from '../shared/provider-template';
import { type ExitProvider, type ExitUpstream, UpstreamExitChooser } from './upstream-exit-chooser';

const MIN = 60_000;
const ups: ExitUpstream[] = [
  { id: 'us1', url: 'http://u:p@10.0.0.1:8000', country: 'US', state: 'ca', city: 'losangeles' },
  { id: 'us2', url: 'http://u:p@10.0.0.2:8000', country: 'US', state: 'ny', city: 'newyork' },
  { id: 'us3', url: 'socks5://u:p@10.0.0.3:1080', country: 'US', state: 'ca', city: 'sanfrancisco' },
  { id: 'de1', url: 'http://10.0.0.4:8000', country: 'DE' },
];
const p = (over: Partial<ProxyParams> = {}): ProxyParams => ({ account: 'a', country: null, state: null, city: null, session: null, lifeMinutes: 10, ...over });
const id = (e: Exit | { refusal: string }) => ('refusal' in e ? e.refusal : e.id);

function clock() {
  let t = 1_700_000_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('upstream exit chooser', () => {
  it('routes by country, state and city', () => {
    const c = new UpstreamExitChooser({ upstreams: ups });
    expect(id(c.choose(p({ country: 'DE' }), 1))).toBe('de1');
    expect(id(c.choose(p({ country: 'US', state: 'ny' }), 1))).toBe('us2');
    expect(id(c.choose(p({ country: 'US', city: 'sanfrancisco' }), 1))).toBe('us3');
    expect(id(c.choose(p({ country: 'JP' }), 1))).toBe('NO_SUPPLY');
    expect(id(c.choose(p({ country: 'DE', city: 'berlin' }), 1))).toBe('NO_SUPPLY');
  });

  it('rotates: each new connection takes the next matching upstream', () => {
    const c = new UpstreamExitChooser({ upstreams: ups });
    const us = Array.from({ length: 9 }, () => id(c.choose(p({ country: 'US' }), 1)));
    expect(us).toEqual(['us1', 'us2', 'us3', 'us1', 'us2', 'us3', 'us1', 'us2', 'us3']);
    const ca = Array.from({ length: 4 }, () => id(c.choose(p({ country: 'US', state: 'ca' }), 1)));
    expect(ca).toEqual(['us1', 'us3', 'us1', 'us3']);
    const any = new Set(Array.from({ length: 4 }, () => id(c.choose(p(), 1))));
    expect(any).toEqual(new Set(['us1', 'us2', 'us3', 'de1']));
  });

  it('holds a sticky session for its lifetime, then moves it to another exit', () => {
    const t = clock();
    const c = new UpstreamExitChooser({ upstreams: ups }, { now: t.now });
    const sticky = p({ country: 'US', session: 's1', lifeMinutes: 5 });
    const first = id(c.choose(sticky, 1));
    for (let i = 0; i < 10; i++) {
      c.choose(p({ country: 'US' }), 1); // rotating traffic in between does not disturb it
      t.advance(29_000);
      expect(id(c.choose(sticky, 1))).toBe(first);
    }
    t.advance(5 * MIN - 10 * 29_000);
    const moved = id(c.choose(sticky, 1));
    expect(moved).not.toBe(first);
    t.advance(4 * MIN);
    expect(id(c.choose(sticky, 1))).toBe(moved);
  });

  it('keeps sessions apart per account and per session id, and spreads them', () => {
    const c = new UpstreamExitChooser({ upstreams: ups });
    const chosen = new Map<string, string>();
    for (const account of [1, 2]) {
      for (let i = 0; i < 30; i++) chosen.set(`${account}/s${i}`, id(c.choose(p({ country: 'US', session: `s${i}` }), account)));
    }
    // Each account's session is its own: the same id under two accounts is chosen independently.
    expect(new Set(chosen.values())).toEqual(new Set(['us1', 'us2', 'us3']));
    expect([...chosen.keys()].filter((k) => k.startsWith('1/')).some((k) => chosen.get(k) !== chosen.get(k.replace(/^1/, '2')))).toBe(true);
    for (const [k, exit] of chosen) {
      const [account, session] = k.split('/');
      expect(id(c.choose(p({ country: 'US', session }), Number(account)))).toBe(exit);
    }
  });

  it('gives a session the same exits on every instance and after a restart, window by window', () => {
    const life = 5 * MIN;
    // Start just after a lifetime window opens (windows count from the epoch), so the timeline is exact.
    let now = Math.ceil(1_700_000_000_000 / life) * life + 1000;
    const at = () => now;
    const template = 'http://cust-session-{session}:pw@gw.example.net:7000';
    const a = new UpstreamExitChooser({ upstreams: ups, template }, { now: at });
    const sticky = p({ country: 'US', session: 'shared', lifeMinutes: 5 });
    const fr = p({ country: 'FR', session: 'shared', lifeMinutes: 5 });
    const first = id(a.choose(sticky, 1));
    const firstUrl = (a.choose(fr, 1) as { url: string }).url;
    now += 40_000;
    // Another gateway sees the session for the first time: same upstream, same provider session.
    const b = new UpstreamExitChooser({ upstreams: ups, template }, { now: at });
    expect(id(b.choose(sticky, 1))).toBe(first);
    expect((b.choose(fr, 1) as { url: string }).url).toBe(firstUrl);

    now += life - 40_000; // a's lifetime is over: it moves, to another upstream
    const moved = id(a.choose(sticky, 1));
    expect(moved).not.toBe(first);
    const movedUrl = (a.choose(fr, 1) as { url: string }).url;
    expect(movedUrl).not.toBe(firstUrl);
    now += 40_000; // b's is over too: it moves to the same one
    expect(id(b.choose(sticky, 1))).toBe(moved);
    expect((b.choose(fr, 1) as { url: string }).url).toBe(movedUrl);
    // A gateway restarted meanwhile agrees as well.
    const restarted = new UpstreamExitChooser({ upstreams: ups, template }, { now: at });
    expect(id(restarted.choose(sticky, 1))).toBe(moved);
    expect((restarted.choose(fr, 1) as { url: string }).url).toBe(movedUrl);
  });

  it('moves a sticky session whose upstream left the supply, and forgets expired sessions', () => {
    const t = clock();
    const c = new UpstreamExitChooser({ upstreams: ups }, { now: t.now });
    const sticky = p({ country: 'US', session: 's1' });
    const first = id(c.choose(sticky, 1));
    c.update({ upstreams: ups.filter((u) => u.id !== first) });
    const next = id(c.choose(sticky, 1));
    expect(next).not.toBe(first);
    expect(next).toMatch(/^us/);
    expect(c.sessions).toBe(1);
    t.advance(11 * MIN);
    c.choose(p({ country: 'DE', session: 'other' }), 1);
    expect(c.sessions).toBe(1);
  });

  it('falls back to the provider template, with a fresh session per rotating connection and a stable one per sticky session', () => {
    const t = clock();
    let n = 0;
    const c = new UpstreamExitChooser(
      { upstreams: ups, template: 'http://cust[-country-{country}][-city-{city}]-session-{session}-time-{life}:pw@gw.example.net:7000' },
      { now: t.now, randomId: () => `r${++n}` },
    );
    expect(c.choose(p({ country: 'US' }), 1)).toMatchObject({ id: 'us1' }); // listed upstreams first
    expect(c.choose(p({ country: 'JP' }), 1)).toEqual({ kind: 'upstream', id: 'template', url: 'http://cust-country-jp-session-r1-time-10:pw@gw.example.net:7000', oneOff: true });
    expect((c.choose(p({ country: 'JP', city: 'tokyo' }), 1) as { url: string }).url).toBe('http://cust-country-jp-city-tokyo-session-r2-time-10:pw@gw.example.net:7000');
    const sticky = p({ country: 'FR', session: 'abc', lifeMinutes: 3 });
    const s1 = (c.choose(sticky, 7) as { url: string }).url;
    expect(s1).toMatch(/^http:\/\/cust-country-fr-session-[0-9a-f]{16}-time-3:pw@/);
    expect((c.choose(sticky, 7) as { url: string }).url).toBe(s1);
    t.advance(3 * MIN);
    expect((c.choose(sticky, 7) as { url: string }).url).not.toBe(s1);
  });

  it('offers direct egress only when enabled, and only without a region unless told otherwise', () => {
    expect(id(new UpstreamExitChooser({}).choose(p(), 1))).toBe('NO_SUPPLY');
    const d = new UpstreamExitChooser({ direct: true });
    expect(d.choose(p(), 1)).toEqual({ kind: 'direct', id: 'direct' });
    expect(id(d.choose(p({ country: 'US' }), 1))).toBe('NO_SUPPLY');
    expect(id(new UpstreamExitChooser({ direct: true, directServesRegions: true }).choose(p({ country: 'US' }), 1))).toBe('direct');
  });

  it('refuses a template that is not a proxy URL, without echoing its password', () => {
    expect(() => new UpstreamExitChooser({ template: 'ftp://u:secret@h:1' })).toThrow(/http:\/\/ or socks5/);
    expect(() => new UpstreamExitChooser({ template: 'http://u-{zone}:secret@h:1' })).toThrow(/placeholder/);
    expect(() => new UpstreamExitChooser({ template: 'http://u-{zone}:secret@h:1' })).not.toThrow(/secret/);
  });
});

describe('provider template', () => {
  const v = { country: 'US', state: null, city: null, session: 's9', life: 10 };
  it('fills placeholders, upper-case country on request, and drops optional parts without a value', () => {
    expect(renderTemplate('socks5://customer-u-cc-{COUNTRY}[-st-{state}]-sessid-{session}:pw@h:1', v)).toBe('socks5://customer-u-cc-US-sessid-s9:pw@h:1');
  });
  it('cannot serve a request missing a required placeholder', () => {
    expect(renderTemplate('http://u-country-{country}:pw@h:1', { ...v, country: null })).toBeNull();
  });
});

describe('exit chooser over providers', () => {
  const provider = (id: number, over: Partial<ExitProvider> = {}): ExitProvider => ({
    id,
    upstreams: [{ id: `upstream-${id}1`, url: `http://10.0.${id}.1:8000`, country: 'US' }, { id: `upstream-${id}2`, url: `http://10.0.${id}.2:8000`, country: 'DE' }],
    template: '',
    regions: [],
    priority: 1,
    weight: 100,
    ...over,
  });
  /** A health view the test sets by hand. */
  function health() {
    const down = new Set<number>();
    const view = { version: 0, providerUp: (id: number) => !down.has(id), upstreamUp: () => true };
    return { view, set: (id: number, up: boolean) => (up ? down.delete(id) : down.add(id), view.version++) };
  }
  const providerOf = (e: Exit | { refusal: string }) => ('refusal' in e ? e.refusal : e.providerId);

  it('splits rotating connections by weight, evenly interleaved', () => {
    const c = new UpstreamExitChooser({ providers: [provider(1, { weight: 500 }), provider(2, { weight: 300 }), provider(3, { weight: 200 })] });
    const counts = new Map<unknown, number>();
    const seq: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      const chosen = providerOf(c.choose(p({ country: 'US' }), 1));
      seq.push(chosen);
      counts.set(chosen, (counts.get(chosen) ?? 0) + 1);
    }
    // Smooth weighted round-robin is exact over each cycle of the weights' sum (10 connections at 5:3:2).
    expect(Object.fromEntries(counts)).toEqual({ 1: 500, 2: 300, 3: 200 });
    expect(seq.slice(0, 10)).toEqual([1, 2, 3, 1, 1, 2, 1, 3, 2, 1]);
  });

  it('serves a region with the best priority among the healthy providers that serve it, and falls back a tier when they are down', () => {
    const h = health();
    const c = new UpstreamExitChooser(
      { providers: [provider(1, { regions: ['DE'] }), provider(2, { priority: 1, regions: ['US'] }), provider(3, { priority: 2 })] },
      { health: h.view },
    );
    expect(providerOf(c.choose(p({ country: 'US' }), 1))).toBe(2);
    expect(providerOf(c.choose(p({ country: 'DE' }), 1))).toBe(1);
    expect(new Set(Array.from({ length: 6 }, () => providerOf(c.choose(p(), 1))))).toEqual(new Set([1, 2]));
    h.set(2, false);
    expect(providerOf(c.choose(p({ country: 'US' }), 1))).toBe(3);
    expect(providerOf(c.choose(p({ country: 'US' }), 1, 3))).toBe('NO_SUPPLY');
    h.set(3, false);
    expect(providerOf(c.choose(p({ country: 'US' }), 1))).toBe('NO_SUPPLY');
    h.set(2, true);
    expect(providerOf(c.choose(p({ country: 'US' }), 1))).toBe(2);
    // A provider that serves a region but has no upstream for it (and no template) does not serve it.
    expect(providerOf(c.choose(p({ country: 'JP' }), 1))).toBe('NO_SUPPLY');
  });

  it('keeps a sticky session on its provider while it is healthy, moves only the sessions of one that goes down, the same way everywhere', () => {
    const h = health();
    const supply = { providers: [provider(1), provider(2), provider(3)] };
    const c = new UpstreamExitChooser(supply, { health: h.view });
    const sessions = Array.from({ length: 300 }, (_, i) => p({ country: 'US', session: `s${i}` }));
    const before = sessions.map((s) => providerOf(c.choose(s, 1)));
    // Weighted rendezvous: an even spread at equal weights.
    for (const id of [1, 2, 3]) expect(before.filter((x) => x === id).length).toBeGreaterThan(60);
    h.set(2, false);
    const after = sessions.map((s) => providerOf(c.choose(s, 1)));
    sessions.forEach((_, i) => {
      if (before[i] !== 2) expect(after[i]).toBe(before[i]);
      else expect(after[i]).not.toBe(2);
    });
    // Another instance (or a restart) with the same view moves them alike.
    const other = new UpstreamExitChooser(supply, { health: h.view });
    expect(sessions.map((s) => providerOf(other.choose(s, 1)))).toEqual(after);
  });

  it('retries elsewhere: a provider to avoid is not chosen, and direct egress is no retry', () => {
    const c = new UpstreamExitChooser({ providers: [provider(1), provider(2)], direct: true });
    for (let i = 0; i < 4; i++) expect(providerOf(c.choose(p({ country: 'US' }), 1, 1))).toBe(2);
    expect(c.choose(p({ country: 'US', session: 'x' }), 1, 2)).toMatchObject({ providerId: 1 });
    const lone = new UpstreamExitChooser({ providers: [provider(1)], direct: true });
    expect(lone.choose(p(), 1, 1)).toEqual({ refusal: 'NO_SUPPLY' });
  });
});
