import type { Socket } from 'node:net';

/*
 * Shared listeners (`this` is the emitting socket, the other end is found in `peers`), so an idle
 * tunnel holds no closures of its own: 1,000 idle tunnels are 2,000 sockets and little else. A WeakMap
 * rather than a property on the socket: adding properties to Node's sockets gives them new hidden
 * classes and makes the stream code's property accesses polymorphic, which costs on every chunk.
 */
const peers = new WeakMap<Socket, Socket>();

function destroyBoth(this: Socket): void {
  this.destroy();
  peers.get(this)?.destroy();
}
/** The client is gone (closed both ways, reset or cut off): nothing upstream is wanted any more. */
function onClientClose(this: Socket): void {
  peers.get(this)?.destroy();
}
/**
 * The upstream closed: `pipe` has already ended the client after the last byte (or end it here if the
 * upstream went without an 'end'). The unpiped client is paused now; let it flow so its own FIN (and
 * any last bytes, still counted) is read and the socket can close.
 */
function onUpstreamClose(this: Socket): void {
  const client = peers.get(this);
  if (!client) return;
  client.resume();
  // Checked first: end() on an ended stream builds an error object (with its stack) per tunnel.
  if (!client.destroyed && !client.writableEnded) client.end();
}

/**
 * Joins a client and an upstream socket both ways with `pipe` (backpressure, no per-chunk work of
 * ours: metering reads the sockets' own byte counters). A FIN travels on as a FIN (half-close, RFC 9293
 * §3.6); an error or a cut on either side destroys both.
 */
export function splice(client: Socket, upstream: Socket): void {
  peers.set(client, upstream);
  peers.set(upstream, client);
  client.on('error', destroyBoth);
  upstream.on('error', destroyBoth);
  client.once('close', onClientClose);
  upstream.once('close', onUpstreamClose);
  client.pipe(upstream);
  upstream.pipe(client);
}
