import type { Socket } from 'node:net';

/** A tunnel's socket knows its other end, its byte budget's counter and whether its budget holds it still. */
const PEER = Symbol('peer');
const CHARGE = Symbol('charge');
const HELD = Symbol('held');

interface TunnelSocket extends Socket {
  [PEER]: TunnelSocket;
  [CHARGE]: (chunk: Buffer) => unknown;
  [HELD]: boolean;
}

/**
 * Joins a client and an upstream socket both ways, with backpressure: a side whose peer's buffer is
 * full pauses until the peer drains (what `pipe` does). Metering reads the sockets' own byte counters;
 * the only per-chunk work of ours is `charge`, the byte budget's counter (live-connections.ts), heard
 * after the chunk was written on. A FIN travels on as a FIN (half-close, RFC 9293 §3.6); an error or a
 * cut on either side destroys both.
 *
 * Every listener is one shared function that finds the peer in a field of the socket: no closure, no
 * `once` wrapper and no `pipe` state per tunnel. An idle tunnel is what its two sockets hold and little
 * else: `pipe` and per-tunnel closures were ~2.5 KB of its ~8 KB of JavaScript heap (heap snapshots
 * of 1,000 idle tunnels, docs/gateway.md#implementation-notes). A WeakMap from socket to peer would cost more
 * than either: an entry never deleted kept its peer alive through scavenges (measured with
 * `--trace-gc-nvp`, indexed-set.ts).
 */
export function splice(client: Socket, upstream: Socket, charge: (chunk: Buffer) => unknown): void {
  const c = client as TunnelSocket;
  const u = upstream as TunnelSocket;
  c[PEER] = u;
  u[PEER] = c;
  c[CHARGE] = u[CHARGE] = charge;
  c[HELD] = u[HELD] = false;
  for (const s of [c, u]) {
    s.on('data', onData);
    s.on('drain', onDrain);
    s.on('end', onEnd);
    s.on('error', onError);
  }
  // The client is gone (closed both ways, reset or cut off): nothing upstream is wanted any more.
  c.on('close', onClientClose);
  u.on('close', onUpstreamClose);
  c.resume();
  u.resume();
}

function onData(this: TunnelSocket, chunk: Buffer): void {
  if (!this[PEER].write(chunk)) this.pause();
  this[CHARGE](chunk);
}

/** This socket's buffer drained: its peer may read again, unless its budget holds it still. */
function onDrain(this: TunnelSocket): void {
  const peer = this[PEER];
  if (!peer[HELD] && peer.isPaused()) peer.resume();
}

function onEnd(this: TunnelSocket): void {
  const peer = this[PEER];
  // Checked first: end() on an ended stream builds an error object (with its stack) per tunnel.
  if (!peer.destroyed && !peer.writableEnded) peer.end();
}

function onError(this: TunnelSocket): void {
  this.destroy();
  this[PEER].destroy();
}

function onClientClose(this: TunnelSocket): void {
  this[PEER].destroy();
}

function onUpstreamClose(this: TunnelSocket): void {
  const client = this[PEER];
  // The upstream's last bytes were written on at its 'end' (or it went without one: end the client
  // here). Let the client flow so its own FIN (and any last bytes, still counted) is read and it can close.
  client.resume();
  if (!client.destroyed && !client.writableEnded) client.end();
}

/** The tunnel's budget holds (live-connections.ts): neither side reads until `releaseTunnel`. */
export function holdTunnel(client: Socket, upstream: Socket): void {
  for (const s of [client, upstream] as TunnelSocket[]) {
    s[HELD] = true;
    s.pause();
  }
}

export function releaseTunnel(client: Socket, upstream: Socket): void {
  for (const s of [client, upstream] as TunnelSocket[]) {
    s[HELD] = false;
    // A side whose peer's buffer is still full waits for its 'drain' as before.
    if (!s.readableEnded && !s[PEER].writableNeedDrain) s.resume();
  }
}
