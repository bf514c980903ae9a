import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/gateway-fixtures';
import { until } from '../../test/store-gateway-kit';
import type { CutoffEvent } from './cutoff-bus';
import { RedisCutoffBus } from './redis-cutoff-bus';

/** The machine's Redis (CI has one at the same address). */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A prefix no other test run uses: test files run in parallel against the same Redis. */
const prefix = () => `test:${process.pid}:${randomBytes(4).toString('hex')}:`;

interface Logged {
  level: 'info' | 'warn';
  msg: string;
}

function recordingLog() {
  const lines: Logged[] = [];
  return { lines, log: { info: (_: object, msg: string) => lines.push({ level: 'info', msg }), warn: (_: object, msg: string) => lines.push({ level: 'warn', msg }) } };
}

function listen(bus: RedisCutoffBus): CutoffEvent[] {
  const got: CutoffEvent[] = [];
  bus.subscribe((e) => void got.push(e));
  return got;
}

describe('cut-off events over Redis', () => {
  const admin = new Redis(REDIS_URL, { lazyConnect: true });
  const buses: RedisCutoffBus[] = [];
  const bus = (p: string, url = REDIS_URL) => {
    const r = recordingLog();
    const b = new RedisCutoffBus({ url, prefix: p, log: r.log });
    buses.push(b);
    return Object.assign(b, { lines: r.lines });
  };
  /** Until `n` connections listen on the channel: a message sent before that is lost (pub/sub keeps none). */
  const subscribers = (channel: string, n: number) =>
    until(async () => Number(((await admin.pubsub('NUMSUB', channel)) as [string, number])[1]) === n, 10_000, `${n} subscribers on ${channel}`);

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  afterAll(() => admin.disconnect());

  it('reaches the other processes once, and this one at once without the round trip', async () => {
    const p = prefix();
    const [a, b, c] = [bus(p), bus(p), bus(p)];
    const [atA, atB, atC] = [listen(a), listen(b), listen(c)];
    await subscribers(a.channel, 3);

    const event = { userId: 7, accountId: 70, closeLive: true };
    await a.publish(event);
    // Delivered to its own process's subscribers before publish() resolved.
    expect(atA).toEqual([event]);
    await until(() => atB.length > 0 && atC.length > 0, 5000, 'the other buses to hear it');
    // A marker after it: by the time it arrives, a copy of the first event would have arrived too.
    await b.publish({ userId: 8 });
    await until(() => atA.length === 2 && atC.length === 2, 5000, 'the marker');
    expect(atA).toEqual([event, { userId: 8 }]);
    expect(atB).toEqual([event, { userId: 8 }]);
    expect(atC).toEqual([event, { userId: 8 }]);
  });

  it('keeps deployments with different prefixes apart, and ignores what is not an event', async () => {
    const p = prefix();
    const a = bus(p);
    const other = bus(prefix());
    const [atA, atOther] = [listen(a), listen(other)];
    await Promise.all([subscribers(a.channel, 1), subscribers(other.channel, 1)]);

    await admin.publish(a.channel, 'not json');
    await admin.publish(a.channel, JSON.stringify({ origin: 'x', event: { userId: -1 } }));
    await admin.publish(a.channel, JSON.stringify({ origin: 'x', event: { userId: 5 } }));
    await until(() => atA.length > 0, 5000, 'the valid event');
    await admin.publish(other.channel, JSON.stringify({ origin: 'x', event: { userId: 6 } }));
    await until(() => atOther.length > 0, 5000, 'the marker on the other channel');
    expect(atA).toEqual([{ userId: 5 }]);
    expect(atOther).toEqual([{ userId: 6 }]);
  });

  it('with Redis unreachable, publishing still reaches this process, warns once and never throws', async () => {
    const a = bus(prefix(), `redis://127.0.0.1:${await closedPort()}`);
    const atA = listen(a);
    await until(() => a.lines.some((l) => l.level === 'warn'), 10_000, 'a warning');
    await a.publish({ userId: 1 });
    await a.publish({ userId: 2 });
    expect(atA).toEqual([{ userId: 1 }, { userId: 2 }]);
    // ioredis keeps retrying in the background; one warning per connection, not one per attempt.
    await new Promise((r) => setTimeout(r, 500));
    expect(a.lines.filter((l) => l.level === 'warn').length).toBeLessThanOrEqual(2);
    expect(a.lines.map((l) => l.msg).join('\n')).toMatch(/falls back to polling/);
  });

  it('subscribes again after the connection to Redis is lost', async () => {
    // A TCP relay to Redis whose connections the test can cut, like a Redis restart or a network blip.
    const cut = new Set<net.Socket>();
    const redis = new URL(REDIS_URL);
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(redis.port || 6379), redis.hostname);
      for (const s of [client, upstream]) {
        cut.add(s);
        s.on('error', () => undefined);
        s.on('close', () => cut.delete(s));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    try {
      const p = prefix();
      const viaRelay = bus(p, `redis://127.0.0.1:${(relay.address() as net.AddressInfo).port}`);
      const direct = bus(p);
      const got = listen(viaRelay);
      await subscribers(viaRelay.channel, 2);

      for (const s of cut) s.destroy();
      await subscribers(viaRelay.channel, 1);
      await until(() => viaRelay.lines.some((l) => l.level === 'warn'), 5000, 'a warning about the lost connection');
      // ioredis reconnects with backoff; the bus subscribes again on 'ready'.
      await subscribers(viaRelay.channel, 2);
      await direct.publish({ userId: 9 });
      await until(() => got.length > 0, 5000, 'the event after the reconnect');
      expect(got).toEqual([{ userId: 9 }]);
      expect(viaRelay.lines.some((l) => l.level === 'info' && /reachable again/.test(l.msg))).toBe(true);
    } finally {
      await Promise.all(buses.splice(0).map((b) => b.close()));
      for (const s of cut) s.destroy();
      await new Promise((r) => relay.close(r));
    }
  });
});
