import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST, startHttpOrigin, waitFor } from '../../test/gateway-fixtures';
import { ExitAgent, UpstreamAgents } from './upstream-agents';

/** A GET of `/stream/RATE` that stays open: counts what arrives and whether it ended early. */
function openStream(port: number, agent: http.Agent) {
  const s = { received: 0, closed: false, req: null as http.ClientRequest | null };
  s.req = http.get({ host: HOST, port, path: '/stream/20000', agent }, (res) => {
    res.on('data', (c: Buffer) => (s.received += c.length));
    res.on('close', () => (s.closed = true));
  });
  s.req.on('error', () => (s.closed = true));
  return s;
}

describe('agents for plain requests', () => {
  let origin: Awaited<ReturnType<typeof startHttpOrigin>>;
  beforeAll(async () => {
    origin = await startHttpOrigin();
  });
  afterAll(() => origin.close());

  it('gives up a connection that is not up within the connect timeout, as ETIMEDOUT', async () => {
    const agent = new ExitAgent(200, { keepAlive: true });
    // A name that never resolves keeps the socket connecting, as a silent network would.
    const never = () => undefined;
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
      http.get({ host: 'never.test', port: 80, agent, lookup: never as never }, () => resolve(new Error('answered'))).on('error', resolve);
    });
    expect(err.code).toBe('ETIMEDOUT');
    agent.destroy();
  });

  it('bounds the pool without ever closing a request in flight', async () => {
    const agents = new UpstreamAgents(5000, 2);
    const a = agents.forUrl('http://a.test:1', true);
    const b = agents.forUrl('http://b.test:1', true);
    const sa = openStream(origin.port, a);
    const sb = openStream(origin.port, b);
    await waitFor(() => sa.received > 0 && sb.received > 0, 5000, 'both streams');

    // Full, and both busy: a third URL goes without keep-alive rather than cutting one of them.
    const c = agents.forUrl('http://c.test:1', true);
    expect([c === a, c === b, agents.size]).toEqual([false, false, 2]);
    const seen = [sa.received, sb.received];
    await waitFor(() => sa.received > seen[0]! && sb.received > seen[1]!, 5000, 'streams still flowing');
    expect([sa.closed, sb.closed]).toEqual([false, false]);

    // Once one is idle, it is the one closed to make room; the busy one is kept and reused.
    sa.req!.destroy();
    await waitFor(() => Object.keys(a.sockets).length === 0, 5000, 'a idle');
    const c2 = agents.forUrl('http://c.test:1', true);
    expect(c2).not.toBe(a);
    expect(agents.forUrl('http://b.test:1', true)).toBe(b);
    expect(agents.forUrl('http://c.test:1', true)).toBe(c2);
    expect(agents.size).toBe(2);
    expect(sb.closed).toBe(false);

    // A URL made for one connection (a provider template's) is never pooled.
    expect(agents.forUrl('http://u-session-1:p@d.test:1', false)).toBe(agents.forUrl('http://u-session-2:p@d.test:1', false));
    expect(agents.size).toBe(2);
    sb.req!.destroy();
    agents.destroy();
  });
});
