import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionLimits } from './connection-limits';

describe('ConnectionLimits.acceptError', () => {
  afterEach(() => vi.useRealTimers());

  it('logs failed accepts at most once per 10 s, with how many failed since the last line', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const lines: object[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: (o: object) => lines.push(o) };
    const limits = new ConnectionLimits({ listener: 'http', handshakeMs: 10_000, maxPendingPerIp: 64, maxConnections: 100, log });
    const emfile = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' });
    for (let i = 0; i < 500; i++) limits.acceptError(emfile);
    expect(lines).toEqual([{ listener: 'http', code: 'EMFILE', failedAccepts: 1 }]);
    vi.setSystemTime(1_010_000);
    limits.acceptError(emfile);
    expect(lines[1]).toEqual({ listener: 'http', code: 'EMFILE', failedAccepts: 500 });
  });
});
