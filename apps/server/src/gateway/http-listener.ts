import http from 'node:http';
import net, { type Socket } from 'node:net';
import { type Admission, type Arrival, admitFrom, basicCredentials } from './admission';
import { ConnectionLimits, type Handshake, type ListenerLimits } from './connection-limits';
import { expireAt } from './deadlines';
import type { DestinationGuard } from './destination-guard';
import { upstreamAddress } from './exit-dialer';
import { dialWithFailover } from './failover-dial';
import type { ProviderHealth } from './provider-health';
import type { GatewayLog } from './gateway-log';
import type { GatewayMetrics } from './gateway-metrics';
import { IndexedSet } from './indexed-set';
import { HEADS_ESTIMATE, type LiveConnections } from './live-connections';
import type { LoginFailures } from './login-failures';
import type { ExitChooser, GatewayAuthority } from './ports';
import { GatewayRequest, GatewayResponse, PlainSocket } from './plain-exchange';
import { type PlainRoute, forwardPlain } from './plain-forward';
import { RangeServers } from './range-listeners';
import { type GatewayReason, refusalAnswer } from './statuses';
import type { BadParam } from './username-params';
import { splice } from './tunnel';
import { DialAgent, UpstreamAgents } from './upstream-agents';

export interface HttpListenerOptions {
  host: string;
  port: number;
  authority: GatewayAuthority;
  chooser: ExitChooser;
  /** Providers' passive health (provider-health.ts): each tunnel's dial and plain request is counted; null: not kept. */
  health: ProviderHealth | null;
  live: LiveConnections;
  connectTimeoutMs: number;
  /** Where direct egress may connect. */
  guard: DestinationGuard;
  /** A plain request read whole must get the head of its answer within this, else 504 UPSTREAM_TIMEOUT. */
  responseTimeoutMs: number;
  /** Realm of `Proxy-Authenticate: Basic realm="…"` on 407 (RFC 9110 §11.7.1). */
  realm: string;
  log: GatewayLog;
  /** Head deadline (the first head, and each next one on a kept-alive connection) and connection caps. */
  limits: ListenerLimits;
  /** Failed logins per source IP, shared with the SOCKS5 listener. */
  failures: LoginFailures;
  /** Where each refusal is counted (gateway-metrics.ts). */
  metrics: GatewayMetrics;
  /** Port endpoints: every port of this range too, each carrying its leased session (docs/gateway.md#port-endpoints). */
  portRange?: readonly [number, number];
}
const ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n', 'latin1');

/**
 * The HTTP proxy listener (docs/gateway.md#ports), with two paths.
 *
 * - Plain HTTP (absolute-form requests, RFC 9112 §3.2.2): admitted here and forwarded over the exit's
 *   kept-alive agent (plain-forward.ts), on Node's HTTP server with our request and response classes.
 * - CONNECT (RFC 9110 §9.3.6): dialled through the same exit dialer as the SOCKS5 listener, so both
 *   tunnel protocols chain to upstreams and fail with the same statuses. A connection that opens with a
 *   complete, plain CONNECT head is tunnelled straight from its first bytes, without the HTTP parser,
 *   request object and server bookkeeping (`acceptFast`); that is most of the cost of a new tunnel and
 *   what keeps the gateway, with auth and metering, level with a bare Node tunnel. Any other first bytes
 *   go to the HTTP server as usual (plain requests, and `onConnect` for a CONNECT that comes later on a
 *   kept-alive connection or in an unusual shape).
 *
 * Keep-alive attribution (proxy-chain #572, which this design was first built around): one client
 * socket may carry plain requests with different `Proxy-Authorization`. Bytes are metered per socket
 * from its counters, and the socket's owner may change only at a clean request boundary — after the
 * previous request was read whole and its response sent whole — where the old account is billed up to
 * that boundary. A request that switches account while an earlier one is still in flight (HTTP
 * pipelining) is refused with ACCOUNT_SWITCH.
 */
export class HttpListener {
  /** The bound port (after `listen`). */
  port = 0;
  private readonly states = new WeakMap<Socket, PlainSocket>();
  private readonly agents: UpstreamAgents;
  private readonly onSocketClose: (this: Socket) => void;
  /** Every open client socket, for `close()` (see indexed-set.ts). */
  private readonly open = new IndexedSet<Socket>();
  /** Accepts the connections; the HTTP server gets those that are not a plain CONNECT. */
  private readonly front: net.Server;
  /** Never listens: it is handed the sockets `front` accepted that are not a plain CONNECT. */
  private readonly server: http.Server;
  /** Handshake deadlines, pending connections per IP, the connection budget (connection-limits.ts). */
  readonly limits: ConnectionLimits;
  /** The range ports' servers, and the range port each of their sockets came in on. */
  private readonly range: RangeServers;
  private readonly arrivals = new WeakMap<Socket, Arrival>();

  constructor(private readonly opts: HttpListenerOptions) {
    this.agents = new UpstreamAgents(opts.connectTimeoutMs);
    this.limits = new ConnectionLimits({ listener: 'http', ...opts.limits, log: opts.log });
    // allowHalfOpen as node:http has it: a client's FIN must not end the tunnel's other direction.
    this.front = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.accept(socket));
    this.range = new RangeServers(
      opts.host,
      opts.portRange,
      (socket, port) => {
        this.arrivals.set(socket, { protocol: 'http', port });
        this.accept(socket);
      },
      { allowHalfOpen: true, noDelay: true },
      (err) => this.limits.acceptError(err),
    );
    // Request and response classes that carry each plain request's state (plain-exchange.ts).
    const server = http.createServer({ IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse });
    this.server = server as unknown as http.Server;
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => this.onClientError(err, socket));
    server.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => this.onConnect(req, socket, head));
    server.on('request', (req: GatewayRequest, res: GatewayResponse) => this.onRequest(req, res));
    const { open, states, limits } = this;
    this.onSocketClose = function (this: Socket) {
      open.delete(this);
      limits.closed(this);
      // Deleted, not left to the WeakMap: an entry left behind keeps its value alive through scavenges (tunnel.ts).
      states.delete(this);
      opts.live.release(this);
    };
  }

  /** One shared 'close' listener per socket, no id, no closures. */
  private register(socket: Socket): void {
    this.open.add(socket);
    // `on`, not `once`: 'close' comes once anyway, and `once` wraps each listener in a bound function.
    socket.on('close', this.onSocketClose);
    // Errors before a path attaches its own handlers (apify/proxy-chain#53) must not crash the process.
    socket.on('error', ignore);
  }

  async listen(): Promise<void> {
    await this.listenFront();
    await this.range.listen();
  }

  private listenFront(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.front.once('error', reject);
      this.front.listen(this.opts.port, this.opts.host, () => {
        this.front.removeListener('error', reject);
        this.port = (this.front.address() as net.AddressInfo).port;
        // A failed accept (EMFILE) is an 'error' of the listening server: logged, never fatal.
        this.front.on('error', (err: NodeJS.ErrnoException) => this.limits.acceptError(err));
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.open.toArray()) socket.destroy();
    await Promise.all([new Promise((resolve) => this.front.close(resolve)), this.range.close()]);
    this.agents.destroy();
  }

  /** A plain request: its bookkeeping, then admission, then the forward. */
  private onRequest(req: GatewayRequest, res: GatewayResponse): void {
    const handshake = this.limits.of(req.socket);
    handshake?.headComplete();
    let plain = this.states.get(req.socket);
    if (!plain) this.states.set(req.socket, (plain = new PlainSocket(req.socket, handshake ?? null)));
    res.track(plain, this.opts.responseTimeoutMs);
    res.onFailure = this.onPlainFailure;
    let target: URL | null = null;
    try {
      target = new URL(req.url ?? '');
    } catch {
      // Not absolute-form: a request for the proxy itself, which serves nothing.
    }
    // Only `http:`: anything else goes through CONNECT (RFC 9110 §9.3.6).
    if (target?.protocol !== 'http:') return this.refuseProtocol(req.socket, target ? `Only http:// targets are forwarded (was ${target.protocol}); use CONNECT.` : `Target "${req.url}" could not be parsed.`);
    const a = this.admit(req.socket, handshake, req.headers['proxy-authorization']);
    if (a instanceof Promise) {
      // A fresh read of the store first (admission.ts): the request's body waits in its stream meanwhile.
      void a.then((admitted) => {
        if (!req.socket.destroyed) this.forward(req, res, target, handshake, admitted);
      });
      return;
    }
    this.forward(req, res, target, handshake, a);
  }

  private forward(req: GatewayRequest, res: GatewayResponse, target: URL, handshake: Handshake | undefined, a: Admission): void {
    const route = this.routePlain(req, target, handshake, a);
    if (typeof route === 'string') return this.refuse(req.socket, route);
    if (route) forwardPlain(req, res, target, route);
  }

  /** Admission of a request on `socket`: by its credentials, else by its address (and range port). */
  private admit(socket: Socket, handshake: Handshake | undefined, authorization: string | undefined): Admission | Promise<Admission> {
    const { username, password } = basicCredentials(authorization);
    const ip = handshake?.ip ?? socket.remoteAddress ?? '';
    return admitFrom(ip, this.arrivals.get(socket) ?? null, username, password, this.opts.authority, this.opts.chooser, this.opts.failures, (x) => this.limits.knows(x));
  }

  /**
   * Admits a plain request and names its route, or why not (a refusal answered at once); null when the
   * refusal is answered later (a failed login waits). Credentials are read as the CONNECT path reads
   * them: an empty or non-Basic Proxy-Authorization is no credentials, answered 407 with
   * `Proxy-Authenticate`, so the client can retry with Basic (RFC 9110 §11.7.1).
   */
  private routePlain(request: GatewayRequest, target: URL, handshake: Handshake | undefined, a: Admission): PlainRoute | GatewayReason | null {
    if (!a.ok) {
      const { reason, param } = a;
      if (!a.delayMs) this.refuse(request.socket, reason, param);
      else expireAt(Date.now() + a.delayMs, () => this.refuse(request.socket, reason));
      return null;
    }
    handshake?.authenticated();
    const { guard } = this.opts;
    const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    // Direct egress: an IP literal (URL parsing has normalised `0x7f.1` and the like) or an own port is refused unbilled.
    if (a.exit.kind === 'direct' && guard.refuses(hostname, target.port ? Number(target.port) : 80)) return 'DESTINATION_FORBIDDEN';
    // A guarded upstream (a static IP's) on a refused literal or an own port: the same, before anything is billed.
    if (a.exit.kind === 'upstream' && a.exit.guarded && refusedUpstream(a.exit.url, guard)) return 'DESTINATION_FORBIDDEN';
    const state = this.states.get(request.socket);
    const boundary = state && state.inFlight <= 1 ? state.boundary : null;
    const refusal = this.opts.live.claim(request.socket, a.key, boundary);
    if (refusal) return refusal;
    const res = request.response!;
    // Heads count against the account's byte budget now, bodies as they are written (plain-exchange.ts).
    res.setCharge(this.opts.live.chargeOf(request.socket), HEADS_ESTIMATE, this.opts.live);
    if (this.opts.health && a.exit.providerId !== undefined) res.countFor(this.opts.health, a.exit);
    if (a.exit.kind === 'direct') {
      // A name is checked by the lookup the direct agent's new connection resolves it with (kept-alive ones were checked when made).
      return { agent: this.agents.direct, proxy: null, lookup: guard.lookupWith(() => (res.dialFailure = 'DESTINATION_FORBIDDEN')) };
    }
    if (!a.exit.url.startsWith('http:')) {
      // A SOCKS upstream: the request goes out as if direct, over a connection our dialer opened through it.
      return { agent: new DialAgent(a.exit, this.opts.connectTimeoutMs, guard, (failure) => (res.dialFailure = failure)), proxy: null };
    }
    const proxy = httpProxyOf(a.exit.url);
    if (!proxy) return 'UPSTREAM_AUTH';
    // A guarded upstream's name is checked by the lookup its new connections resolve it with, as for direct egress.
    const lookup = a.exit.guarded ? guard.lookupWith(() => (res.dialFailure = 'DESTINATION_FORBIDDEN')) : undefined;
    return { agent: this.agents.forUrl(a.exit.url, !a.exit.oneOff), proxy, ...(lookup ? { lookup } : {}) };
  }

  private accept(socket: Socket): void {
    // The head deadline stands until a head is complete, here or in the HTTP server: that server never
    // listens, so its own headersTimeout is never checked for the sockets it is handed.
    const handshake = this.limits.admit(socket, this.open.size);
    if (!handshake) return;
    this.register(socket);
    socket.once('data', (chunk: Buffer) => {
      const head = parseConnectHead(chunk);
      // Paused until the tunnel pipes it: bytes a client sends before our 200 must wait, not be dropped.
      socket.pause();
      if (head) {
        handshake.headComplete();
        return this.tunnel(socket, head.target, head.auth, head.rest, (reason, param) => this.refuse(socket, reason, param));
      }
      // Anything else is the HTTP server's, first bytes included (as httpolyglot hands sockets over).
      socket.unshift(chunk);
      this.server.emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  }

  /** A CONNECT the HTTP server parsed: later on a kept-alive connection, or not in the fast path's shape. */
  private onConnect(request: http.IncomingMessage, socket: Socket, head: Buffer): void {
    this.limits.of(socket)?.headComplete();
    this.tunnel(socket, request.url, request.headers['proxy-authorization'], head, (reason, param) => this.refuse(socket, reason, param));
  }

  /** Admits, dials the exit, answers 200 and joins the two sockets (RFC 9110 §9.3.6). */
  private tunnel(socket: Socket, url: string | undefined, authorization: string | undefined, head: Buffer, fail: (reason: GatewayReason, param?: BadParam) => void): void {
    const target = parseConnectTarget(url);
    if (!target) return fail('BAD_TARGET');
    const handshake = this.limits.of(socket);
    const admitted = this.admit(socket, handshake, authorization);
    if (admitted instanceof Promise) {
      void admitted.then((a) => {
        if (!socket.destroyed) this.dial(socket, target, a, head, fail, handshake);
      });
      return;
    }
    this.dial(socket, target, admitted, head, fail, handshake);
  }

  /** Dials the admitted exit, answers 200 and joins the two sockets. */
  private dial(socket: Socket, target: { host: string; port: number }, a: Admission, head: Buffer, fail: (reason: GatewayReason, param?: BadParam) => void, handshake: Handshake | undefined): void {
    if (!a.ok) {
      const { reason, param } = a;
      return void (a.delayMs ? expireAt(Date.now() + a.delayMs, () => fail(reason)) : fail(reason, param));
    }
    handshake?.authenticated();
    const state = this.states.get(socket);
    const boundary = !state ? 0 : state.inFlight === 0 ? state.boundary : null;
    if (!this.opts.live.mayClaim(socket, a.key.accountId, boundary)) return fail('ACCOUNT_SWITCH');

    let cancel = () => undefined as void;
    const onClientClose = () => cancel();
    socket.once('close', onClientClose);
    cancel = dialWithFailover(this.opts, a, target.host, target.port, (failure, upstream, key) => {
      socket.removeListener('close', onClientClose);
      if (failure || !upstream) return fail(failure ?? 'UPSTREAM_ERROR');
      if (socket.destroyed) return void upstream.destroy();
      // Billed from here: the CONNECT request and the 200 line are traffic too. Refused when the budget
      // is spent or the account holds its limit of connections (counted here, where it becomes one).
      const refusal = this.opts.live.claim(socket, key, boundary);
      if (refusal) {
        upstream.destroy();
        return fail(refusal);
      }
      socket.write(ESTABLISHED);
      // RFC 9110 §9.3.6: bytes the client sent after the CONNECT head belong to the tunnel.
      if (head.length > 0) upstream.write(head);
      splice(socket, upstream, this.opts.live.chargeOf(socket)!);
      this.opts.live.tunnelled(socket, upstream);
    });
  }

  /** A plain forward that failed (plain-exchange.ts answers it). */
  private readonly onPlainFailure = (failure: GatewayReason): void => this.opts.metrics.refused('http', failure);

  /** Every refusal of the listener: status, reason header, `REASON: sentence`, then close. */
  private refuse(socket: Socket, reason: GatewayReason, param?: BadParam): void {
    this.opts.metrics.refused('http', reason);
    const a = refusalAnswer(reason, param);
    answerAndClose(socket, a.status, this.opts.realm, a.body, a.headers);
  }

  /** A plain request an HTTP proxy does not take (not absolute-form, not `http:`). */
  private refuseProtocol(socket: Socket, message: string): void {
    this.opts.metrics.refused('http', 'PROTOCOL');
    answerAndClose(socket, 400, this.opts.realm, message, {});
  }

  /** Node's parser gave up on the client's bytes (https://nodejs.org/api/http.html#event-clienterror). */
  private onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || !socket.writable) return;
    answerAndClose(socket, 400, this.opts.realm, 'Invalid request', {});
  }
}

/**
 * Writes a whole answer straight to the socket and ends it (FIN; the client may still send). Used
 * where no `ServerResponse` may be trusted: a refusal can come while a pipelined request is half read.
 * A 407 names the realm for Basic (RFC 9110 §11.7.1). The socket is destroyed if the FIN is not
 * answered within a second.
 */
function answerAndClose(socket: Socket, status: number, realm: string, message: string, headers: Record<string, string>): void {
  let head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown Status Code'}\r\n`;
  // Our own names and values only (reasons, parameter names): nothing a client wrote.
  for (const [name, value] of Object.entries(headers)) head += `${name.toLowerCase()}: ${value}\r\n`;
  if (status === 407) head += `proxy-authenticate: Basic realm="${realm}"\r\n`;
  head += `connection: close\r\ndate: ${new Date().toUTCString()}\r\ncontent-length: ${Buffer.byteLength(message)}\r\nserver: ${realm}\r\ncontent-type: text/plain; charset=utf-8\r\n\r\n`;
  socket.setTimeout(1000, () => socket.destroy());
  socket.end(head + message);
}

/** Whether the guard refuses an upstream URL's own address before any lookup (an unparsable URL fails later, at its dial). */
function refusedUpstream(url: string, guard: DestinationGuard): boolean {
  try {
    const { host, port } = upstreamAddress(new URL(url));
    return guard.refuses(host, port);
  } catch {
    return false;
  }
}

/** An HTTP upstream's address and credentials; null when its username holds a colon (RFC 7617 §2 forbids it). */
function httpProxyOf(url: string): PlainRoute['proxy'] {
  const u = new URL(url);
  const username = decodeSafe(u.username);
  if (username.includes(':')) return null;
  const authorization = u.username || u.password ? `Basic ${Buffer.from(`${username}:${decodeSafe(u.password)}`).toString('base64')}` : null;
  return { host: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname, port: Number(u.port) || 80, authorization };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function ignore(): void {}

/**
 * A whole CONNECT head in the first chunk, in the plain shape clients send: request line
 * `CONNECT target HTTP/1.x` and header lines `name: value` (RFC 9112 §3, §5). Returns null for anything
 * else — partial, folded (obs-fold), odd whitespace, a repeated Proxy-Authorization — which then goes
 * to Node's HTTP parser like any request, so the fast path never has to judge an unusual message.
 */
export function parseConnectHead(chunk: Buffer): { target: string; auth: string | undefined; rest: Buffer } | null {
  if (chunk.length < 16 || chunk[0] !== 0x43 || chunk.toString('latin1', 0, 8) !== 'CONNECT ') return null;
  const end = chunk.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const lines = chunk.toString('latin1', 0, end).split('\r\n');
  const request = /^CONNECT ([!-~]+) HTTP\/1\.[01]$/.exec(lines[0]!);
  if (!request) return null;
  let auth: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) return null;
    if (colon === 19 && line.slice(0, colon).toLowerCase() === 'proxy-authorization') {
      if (auth !== undefined) return null;
      auth = line.slice(colon + 1).trim();
    }
  }
  return { target: request[1]!, auth, rest: chunk.subarray(end + 4) };
}

/** A header name: RFC 9110 §5.1 field-name = token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** CONNECT's request-target is authority-form, `host:port` or `[v6]:port` (RFC 9112 §3.2.3). */
export function parseConnectTarget(url: string | undefined): { host: string; port: number } | null {
  if (!url) return null;
  const colon = url.lastIndexOf(':');
  if (colon <= 0) return null;
  const portText = url.slice(colon + 1);
  if (!/^[0-9]{1,5}$/.test(portText)) return null;
  const port = Number(portText);
  if (port < 1 || port > 65535) return null;
  let host = url.slice(0, colon);
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return null;
    host = host.slice(1, -1);
    if (!net.isIPv6(host)) return null;
  } else if (host.includes(':') || !/^[A-Za-z0-9._-]+$/.test(host)) {
    return null;
  }
  return { host, port };
}
