import type dns from 'node:dns';
import http from 'node:http';
import net, { type Socket } from 'node:net';
import { type PrepareRequestFunctionOpts, type PrepareRequestFunctionResult, RequestError, Server } from 'proxy-chain';
import { admitFrom, basicCredentials } from './admission';
import { ConnectionLimits } from './connection-limits';
import { expireAt } from './deadlines';
import type { DestinationGuard } from './destination-guard';
import { dialExit } from './exit-dialer';
import type { GatewayLog } from './gateway-log';
import type { GatewayMetrics } from './gateway-metrics';
import { stripHopByHop } from './hop-by-hop';
import { IndexedSet } from './indexed-set';
import { HEADS_ESTIMATE, type LiveConnections } from './live-connections';
import type { LoginFailures } from './login-failures';
import type { ExitChooser, GatewayAuthority } from './ports';
import { GatewayRequest, GatewayResponse, PlainSocket } from './plain-exchange';
import { type GatewayReason, PROXY_CHAIN_FAILURES, REASON_HEADER, refusalAnswer, requestError } from './statuses';
import type { BadParam } from './username-params';
import { splice } from './tunnel';
import { DialAgent, UpstreamAgents } from './upstream-agents';

export interface HttpListenerOptions {
  host: string;
  port: number;
  authority: GatewayAuthority;
  chooser: ExitChooser;
  live: LiveConnections;
  connectTimeoutMs: number;
  /** Where direct egress may connect. */
  guard: DestinationGuard;
  /** A plain request read whole must get the head of its answer within this, else 504 UPSTREAM_TIMEOUT. */
  responseTimeoutMs: number;
  /** Realm of `Proxy-Authenticate: Basic realm="…"` on 407 (RFC 9110 §11.7.1). */
  realm: string;
  log: GatewayLog;
  /** A request head must be complete within this (the first, and each next one on a kept-alive connection). */
  handshakeMs: number;
  /** Connections per source IP that have not authenticated yet. */
  maxPendingPerIp: number;
  /** Open client connections at most; past it new ones are closed at once. */
  maxConnections: number;
  /** Failed logins per source IP, shared with the SOCKS5 listener. */
  failures: LoginFailures;
  /** Where each refusal is counted (gateway-metrics.ts). */
  metrics: GatewayMetrics;
}
const ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n', 'latin1');

/**
 * The HTTP proxy listener (docs/gateway.md#ports): proxy-chain's `Server` with two paths.
 *
 * - Plain HTTP (absolute-form requests, RFC 9112 §3.2.2) is proxy-chain's own: `prepareRequestFunction`
 *   admits the request and names the upstream; proxy-chain forwards it.
 * - CONNECT (RFC 9110 §9.3.6) is ours: it dials through the same exit dialer as the SOCKS5 listener,
 *   so both tunnel protocols chain to upstreams and fail with the same statuses. A connection that
 *   opens with a complete, plain CONNECT head is tunnelled straight from its first bytes, without the
 *   HTTP parser, request object and server bookkeeping (`acceptFast`); that is most of the cost of a
 *   new tunnel and what keeps the gateway, with auth and metering, level with a bare Node tunnel. Any
 *   other first bytes go to the HTTP server as usual (proxy-chain's path, and `onConnect` for a CONNECT
 *   that comes later on a kept-alive connection or in an unusual shape).
 *
 * Keep-alive attribution (proxy-chain #572): one client socket may carry plain requests with different
 * `Proxy-Authorization`. Bytes are metered per socket from its counters, and the socket's owner may
 * change only at a clean request boundary — after the previous request was read whole and its response
 * sent whole — where the old account is billed up to that boundary. A request that switches account
 * while an earlier one is still in flight (HTTP pipelining) is refused with ACCOUNT_SWITCH.
 */
export class HttpListener extends Server {
  private readonly states = new WeakMap<Socket, PlainSocket>();
  private readonly agents: UpstreamAgents;
  private readonly onSocketClose: (this: Socket) => void;
  /** Every open client socket, for `close()`: in place of proxy-chain's Map of them (see indexed-set.ts). */
  private readonly open = new IndexedSet<Socket>();
  /** Accepts the connections; the HTTP server gets those that are not a plain CONNECT. */
  private readonly front: net.Server;
  /** Handshake deadlines, pending connections per IP, the connection budget (connection-limits.ts). */
  readonly limits: ConnectionLimits;

  constructor(private readonly opts: HttpListenerOptions) {
    super({ host: opts.host, port: opts.port, authRealm: opts.realm });
    this.agents = new UpstreamAgents(opts.connectTimeoutMs);
    this.limits = new ConnectionLimits({ listener: 'http', handshakeMs: opts.handshakeMs, maxPendingPerIp: opts.maxPendingPerIp, maxConnections: opts.maxConnections, log: opts.log });
    // allowHalfOpen as node:http has it: a client's FIN must not end the tunnel's other direction.
    this.front = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.accept(socket));
    // Our own HTTP server in place of the one proxy-chain made (which never listens): the same handlers,
    // with request and response classes that carry each plain request's state (plain-exchange.ts).
    const server = http.createServer({ IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse });
    this.server = server as unknown as http.Server;
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => this.onClientError(err, socket));
    server.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => void this.onConnect(req, socket, head));
    server.on('connection', (socket: Socket) => this.onConnection(socket));
    server.on('request', (req: GatewayRequest, res: GatewayResponse) => {
      this.track(req, res);
      void this.onRequest(req, res);
    });
    const { open, states, limits } = this;
    this.onSocketClose = function (this: Socket) {
      open.delete(this);
      limits.closed(this);
      // Deleted, not left to the WeakMap: an entry left behind keeps its value alive through scavenges (tunnel.ts).
      states.delete(this);
      opts.live.release(this);
    };
  }

  /**
   * Replaces proxy-chain's per-socket registration (an id, three closures, a stats event on close)
   * with one shared 'close' listener.
   */
  override onConnection(socket: Socket): void {
    // Registered once, by `accept`; the HTTP server's 'connection' event for a handed-over socket comes here again.
    if (this.open.has(socket)) return;
    // proxy-chain first drops sockets without `remoteAddress` (nodejs/node#23858: reset before
    // 'connection'); that costs a getpeername() per connection, and such a socket closes by itself,
    // which is all the registry needs.
    this.open.add(socket);
    socket.once('close', this.onSocketClose);
    // Errors before a path attaches its own handlers (apify/proxy-chain#53) must not crash the process.
    socket.on('error', ignore);
  }

  override listen(): Promise<void> {
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

  override closeConnections(): void {
    for (const socket of this.open.toArray()) socket.destroy();
  }

  override async close(): Promise<void> {
    this.closeConnections();
    await new Promise((resolve) => this.front.close(resolve));
    this.agents.destroy();
  }

  /** Runs before proxy-chain sees each plain request. */
  private track(req: GatewayRequest, res: GatewayResponse): void {
    const handshake = this.limits.of(req.socket);
    handshake?.headComplete();
    let plain = this.states.get(req.socket);
    if (!plain) this.states.set(req.socket, (plain = new PlainSocket(req.socket, handshake ?? null)));
    res.track(plain, this.opts.responseTimeoutMs);
    res.onFailure = this.onPlainFailure;
  }

  /**
   * Credentials of a plain request, read as the CONNECT path reads them. proxy-chain's own reading
   * answers 400 to an empty or non-Basic Proxy-Authorization; to us that is no credentials: 407 with
   * `Proxy-Authenticate`, so the client can retry with Basic (RFC 9110 §11.7.1).
   */
  override async callPrepareRequestFunction(request: http.IncomingMessage, handlerOpts: Parameters<Server['callPrepareRequestFunction']>[1]): Promise<PrepareRequestFunctionResult> {
    const { username, password } = basicCredentials(request.headers['proxy-authorization']);
    // Only plain `http:` requests get here (proxy-chain refuses other schemes; CONNECT is ours): 80 by default.
    const target = handlerOpts.trgParsed!;
    return this.preparePlain({ connectionId: 0, request, username, password, hostname: target.hostname, port: target.port ? Number(target.port) : 80, isHttp: true });
  }

  private preparePlain({ request, username, password, hostname, port }: PrepareRequestFunctionOpts): PrepareRequestFunctionResult | Promise<never> {
    const handshake = this.limits.of(request.socket);
    const a = admitFrom(handshake?.ip ?? request.socket.remoteAddress ?? '', username, password, this.opts.authority, this.opts.chooser, this.opts.failures);
    if (!a.ok) {
      if (!a.delayMs) throw requestError(a.reason, a.param);
      const error = requestError(a.reason);
      return new Promise((_, reject) => expireAt(Date.now() + a.delayMs!, () => reject(error)));
    }
    handshake?.authenticated();
    const { guard } = this.opts;
    // Direct egress: an IP literal (URL parsing has normalised `0x7f.1` and the like) or an own port is refused unbilled.
    if (a.exit.kind === 'direct' && guard.refuses(hostname.startsWith('[') ? hostname.slice(1, -1) : hostname, port)) throw requestError('DESTINATION_FORBIDDEN');
    const state = this.states.get(request.socket);
    const boundary = state && state.inFlight <= 1 ? state.boundary : null;
    const refusal = this.opts.live.claim(request.socket, a.key, boundary);
    if (refusal) throw requestError(refusal);
    // Heads count against the account's byte budget now, bodies as they are written (plain-exchange.ts).
    (request as GatewayRequest).response?.setCharge(this.opts.live.chargeOf(request.socket), HEADS_ESTIMATE, this.opts.live);
    // proxy-chain forwards `request.rawHeaders` (less its own hop-by-hop list) after this returns.
    stripHopByHop(request.rawHeaders);
    if (a.exit.kind === 'direct') {
      // A name is checked by the lookup the direct agent's new connection resolves it with (kept-alive ones were checked when made).
      const res = (request as GatewayRequest).response;
      // proxy-chain types the hook as dns.lookup itself (with its __promisify__); it is only ever called.
      const dnsLookup = guard.lookupWith(() => res && (res.dialFailure = 'DESTINATION_FORBIDDEN')) as typeof dns.lookup;
      return { upstreamProxyUrl: null, httpAgent: this.agents.direct, dnsLookup };
    }
    if (!a.exit.url.startsWith('http:')) {
      // A SOCKS upstream: the request goes out as if direct, over a connection our dialer opened through it.
      const res = (request as GatewayRequest).response;
      return { upstreamProxyUrl: null, httpAgent: new DialAgent(a.exit, this.opts.connectTimeoutMs, guard, (failure) => res && (res.dialFailure = failure)) };
    }
    return { upstreamProxyUrl: a.exit.url, httpAgent: this.agents.forUrl(a.exit.url, !a.exit.oneOff) };
  }

  private accept(socket: Socket): void {
    // The head deadline stands until a head is complete, here or in the HTTP server: that server never
    // listens, so its own headersTimeout is never checked for the sockets it is handed.
    const handshake = this.limits.admit(socket, this.open.size);
    if (!handshake) return;
    this.onConnection(socket);
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
  override async onConnect(request: http.IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    this.limits.of(socket)?.headComplete();
    this.tunnel(socket, request.url, request.headers['proxy-authorization'], head, (reason, param) => this.failRequest(request, requestError(reason, param)));
  }

  /** Admits, dials the exit, answers 200 and joins the two sockets (RFC 9110 §9.3.6). */
  private tunnel(socket: Socket, url: string | undefined, authorization: string | undefined, head: Buffer, fail: (reason: GatewayReason, param?: BadParam) => void): void {
    const target = parseConnectTarget(url);
    if (!target) return fail('BAD_TARGET');
    const { username, password } = basicCredentials(authorization);
    const handshake = this.limits.of(socket);
    const a = admitFrom(handshake?.ip ?? socket.remoteAddress ?? '', username, password, this.opts.authority, this.opts.chooser, this.opts.failures);
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
    cancel = dialExit(a.exit, target.host, target.port, this.opts.connectTimeoutMs, this.opts.guard, (failure, upstream) => {
      socket.removeListener('close', onClientClose);
      if (failure || !upstream) return fail(failure ?? 'UPSTREAM_ERROR');
      if (socket.destroyed) return void upstream.destroy();
      // Billed from here: the CONNECT request and the 200 line are traffic too. Refused when the budget
      // is spent or the account holds its limit of connections (counted here, where it becomes one).
      const refusal = this.opts.live.claim(socket, a.key, boundary);
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

  /** A plain forward that failed after proxy-chain took it over (plain-exchange.ts answers it). */
  private readonly onPlainFailure = (failure: GatewayReason): void => this.opts.metrics.refused('http', failure);

  /** The same answer proxy-chain gives a RequestError: status, reason header, text, then close. */
  private refuse(socket: Socket, reason: GatewayReason, param?: BadParam): void {
    this.opts.metrics.refused('http', reason);
    const a = refusalAnswer(reason, param);
    this.sendSocketResponse(socket, a.status, a.headers, a.body);
  }

  /** Every refusal leaves through here; proxy-chain's own upstream statuses are mapped onto ours. */
  override failRequest(request: http.IncomingMessage, error: NodeJS.ErrnoException): void {
    let answer = error;
    if (error instanceof RequestError) {
      const failure = PROXY_CHAIN_FAILURES[error.statusCode];
      const ours = (error.headers as Record<string, GatewayReason> | undefined)?.[REASON_HEADER];
      if (failure && !ours) answer = requestError(failure);
      // Neither: one of proxy-chain's own 400s for a request it cannot take (statuses.ts has no row for them).
      this.opts.metrics.refused('http', ours ?? failure ?? 'PROTOCOL');
    } else {
      this.opts.log.error({ err: error }, 'gateway: unexpected error in the http listener');
      answer = requestError('INTERNAL');
      this.opts.metrics.refused('http', 'INTERNAL');
    }
    super.failRequest(request, answer);
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
