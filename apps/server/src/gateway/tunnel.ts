import type { Socket } from 'node:net';

/**
 * Joins a client and an upstream socket both ways with `pipe` (backpressure; metering reads the
 * sockets' own byte counters). The only per-chunk work of ours is `charge`, the byte budget's counter
 * (live-connections.ts), heard after `pipe` has written the chunk on. A FIN travels on as a FIN (half-close, RFC 9293
 * §3.6); an error or a cut on either side destroys both.
 *
 * The listeners are closures over the two sockets. Shared functions that found the peer in a WeakMap
 * cost more: an entry that is never deleted (the sockets simply left) kept its value, the peer socket,
 * alive through the next scavenge, so every tunnel's sockets and buffers were copied and promoted.
 * Measured with `--trace-gc-nvp` at ~4,000 new tunnels/s: 3.1 KB survived a scavenge per tunnel with
 * the WeakMap, 1.7 KB with closures (the bare `net` tunnel: 1.6 KB), and 8.5 µs against 4.7 µs of
 * scavenging per tunnel. An idle tunnel's three closures are a few hundred bytes.
 */
export function splice(client: Socket, upstream: Socket, charge: (chunk: Buffer) => unknown): void {
  const destroyBoth = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', destroyBoth);
  upstream.on('error', destroyBoth);
  // The client is gone (closed both ways, reset or cut off): nothing upstream is wanted any more.
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => {
    // `pipe` has already ended the client after the last byte (or end it here if the upstream went
    // without an 'end'). The unpiped client is paused now; let it flow so its own FIN (and any last
    // bytes, still counted) is read and the socket can close.
    client.resume();
    // Checked first: end() on an ended stream builds an error object (with its stack) per tunnel.
    if (!client.destroyed && !client.writableEnded) client.end();
  });
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('data', charge);
  upstream.on('data', charge);
}
