import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESTINATION_FORBIDDEN_CODE, DestinationGuard } from './destination-guard';

describe('DestinationGuard', () => {
  afterEach(() => vi.restoreAllMocks());
  const guard = (allowPrivate: boolean, ownPorts: number[] = [7777, 7778]) => new DestinationGuard({ allowPrivate, ownPorts: () => ownPorts });

  /** Runs the guard's lookup with the answers `dns.lookup` is made to give. */
  function lookupWith(g: DestinationGuard, answers: dns.LookupAddress[], all: boolean, onRefused?: () => void) {
    const spy = vi.spyOn(dns, 'lookup').mockImplementation(((_host: string, _o: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
      cb(null, answers)) as never);
    return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number; calls: number }>((resolve) =>
      (onRefused ? g.lookupWith(onRefused) : g.lookup)('name.example', { all } as dns.LookupOptions, (err, address, family) =>
        resolve({ err, address, family, calls: spy.mock.calls.length }),
      ),
    );
  }

  it('refuses IP literals that are not public and the own ports on any address, before any lookup', () => {
    const g = guard(false);
    for (const host of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '169.254.169.254', '10.1.2.3']) expect(g.refuses(host, 443), host).toBe(true);
    expect(g.refuses('8.8.8.8', 443)).toBe(false);
    // A name is for the lookup to judge.
    expect(g.refuses('localhost', 443)).toBe(false);
    for (const host of ['8.8.8.8', 'example.com', '127.0.0.1']) expect(g.refuses(host, 7777), host).toBe(true);
  });

  it('with private destinations allowed, refuses only the own ports', () => {
    const g = guard(true);
    expect(g.refuses('127.0.0.1', 6379)).toBe(false);
    expect(g.refuses('169.254.169.254', 80)).toBe(false);
    expect(g.refuses('127.0.0.1', 7778)).toBe(true);
  });

  it('reads the own ports at each check (they are bound after the guard is made)', () => {
    const ports: number[] = [];
    const g = new DestinationGuard({ allowPrivate: true, ownPorts: () => ports });
    expect(g.refuses('127.0.0.1', 40000)).toBe(false);
    ports.push(40000);
    expect(g.refuses('127.0.0.1', 40000)).toBe(true);
  });

  it('refuses a name when any of its answers is not public, and tells the plain path', async () => {
    let told = 0;
    const r = await lookupWith(guard(false), [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }], true, () => told++);
    expect(r.err?.code).toBe(DESTINATION_FORBIDDEN_CODE);
    expect([r.calls, told]).toEqual([1, 1]);
    const mapped = await lookupWith(guard(false), [{ address: '::ffff:169.254.169.254', family: 6 }], false);
    expect(mapped.err?.code).toBe(DESTINATION_FORBIDDEN_CODE);
  });

  it('hands net.connect exactly the answers it checked, resolving once', async () => {
    const answers = [
      { address: '2606:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ];
    const all = await lookupWith(guard(false), answers, true);
    expect([all.err, all.address, all.calls]).toEqual([null, answers, 1]);
    const one = await lookupWith(guard(false), answers, false);
    expect([one.err, one.address, one.family]).toEqual([null, '2606:4700::1111', 6]);
  });

  it('resolves localhost for real and refuses it', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guard(false).lookup('localhost', { all: true }, (e) => resolve(e)));
    expect(err?.code).toBe(DESTINATION_FORBIDDEN_CODE);
    const ok = await new Promise<unknown>((resolve) => guard(true).lookup('localhost', { all: true } as dns.LookupOptions, (_e, a) => resolve(a)));
    expect(ok).toEqual(expect.arrayContaining([expect.objectContaining({ address: '127.0.0.1' })]));
  });
});
