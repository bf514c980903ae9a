import net, { type Socket } from 'node:net';
import { type Admission, type Arrival, admitFrom } from './admission';
import { ConnectionLimits, type Handshake, type ListenerLimits } from './connection-limits';
import { expireAt } from './deadlines';
import type { DestinationGuard } from './destination-guard';
import { dialWithFailover } from './failover-dial';
import type { ProviderHealth } from './provider-health';
import type { GatewayLog } from './gateway-log';
import type { GatewayMetrics, RefusalReason } from './gateway-metrics';
import { IndexedSet } from './indexed-set';
import type { LiveConnections } from './live-connections';
import type { LoginFailures } from './login-failures';
import type { ExitChooser, GatewayAuthority } from './ports';
import { type GatewayReason, SOCKS_AUTH_FAILURE, SOCKS_REPLY, STATUSES } from './statuses';
import { RangeServers } from './range-listeners';
import { splice } from './tunnel';

/*
 * SOCKS5 listener: RFC 1928 with username/password authentication (RFC 1929), CONNECT only.
 *
 * Written here rather than taken from npm: proxy-chain has no SOCKS5 listener, and the server packages
 * on npm are either unmaintained for years (socksv5 and its forks) or parse the handshake one byte at a
 * time through a promise each (@pondwader/socks5-server), write a failure reply and destroy the socket
 * in the same tick (so the reply can be lost), and have no handshake timeout. The protocol part we need
 * is a hundred lines; the tunnel, exit dialing and metering are shared with the HTTP listener.
 */

const VERSION = 0x05;
const METHOD_NO_AUTH = 0x00;
const METHOD_USER_PASS = 0x02;
const NO_ACCEPTABLE_METHODS = 0xff;
const AUTH_VERSION = 0x01;
const CMD_CONNECT = 0x01;
const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;
/** Greeting + auth + request fit in 3 + 513 + 262 bytes; more unparsed input is not a SOCKS client. */
const MAX_HANDSHAKE = 1024;

const enum Stage {
  Greeting,
  Auth,
  /** Admission waits for a fresh read of the store: nothing is parsed meanwhile. */
  Waiting,
  Request,
  Done,
}

/** RFC 1928 §6 reply; BND.ADDR/BND.PORT are zeros (IPv4 0.0.0.0:0), which clients ignore for CONNECT. */
function reply(rep: number): Buffer {
  return Buffer.from([VERSION, rep, 0x00, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}
const GRANTED = reply(SOCKS_REPLY.SUCCEEDED);
const USER_PASS_SELECTED = Buffer.from([VERSION, METHOD_USER_PASS]);
const NO_AUTH_SELECTED = Buffer.from([VERSION, METHOD_NO_AUTH]);
const NO_METHOD = Buffer.from([VERSION, NO_ACCEPTABLE_METHODS]);
const AUTH_FAILED = Buffer.from([AUTH_VERSION, SOCKS_AUTH_FAILURE]);
const EMPTY = Buffer.alloc(0);
const AUTH_OK = Buffer.from([AUTH_VERSION, 0x00]);
/** Both answers a client gets before its request, sent as one when it sent greeting and credentials at once. */
const SELECTED_AUTH_OK = Buffer.concat([USER_PASS_SELECTED, AUTH_OK]);
const SELECTED_AUTH_OK_GRANTED = Buffer.concat([SELECTED_AUTH_OK, GRANTED]);

/**
 * Answers of the handshake not yet written. A client that sends greeting, credentials and request at
 * once (most do) gets all of them with the request's reply in one write: a write is a system call, and
 * the calls are most of what a new tunnel costs.
 */
function owe(owed: Buffer | null, next: Buffer): Buffer {
  if (!owed) return next;
  // The usual sequences are prebuilt: no allocation per tunnel.
  if (owed === USER_PASS_SELECTED && next === AUTH_OK) return SELECTED_AUTH_OK;
  if (owed === SELECTED_AUTH_OK && next === GRANTED) return SELECTED_AUTH_OK_GRANTED;
  return Buffer.concat([owed, next]);
}

export interface SocksListenerOptions {
  host: string;
  port: number;
  authority: GatewayAuthority;
  chooser: ExitChooser;
  /** Providers' passive health (provider-health.ts): each tunnel's dial is counted; null: not kept. */
  health: ProviderHealth | null;
  live: LiveConnections;
  connectTimeoutMs: number;
  /** Where direct egress may connect. */
  guard: DestinationGuard;
  /** Greeting to request must complete within `handshakeMs` (slow or idle clients are dropped); connection caps. */
  limits: ListenerLimits;
  /** Failed logins per source IP, shared with the HTTP listener. */
  failures: LoginFailures;
  log: GatewayLog;
  /** Where each refusal is counted (gateway-metrics.ts). */
  metrics: GatewayMetrics;
  /** Port endpoints: every port of this range too, each carrying its leased session (docs/gateway.md#port-endpoints). */
  portRange?: readonly [number, number];
}

export class SocksListener {
  private readonly server: net.Server;
  /** Every open client socket, for `close()` (an IndexedSet, not a Set: see indexed-set.ts). */
  private readonly sockets = new IndexedSet<Socket>();
  port = 0;
  private readonly onSocketClose: (this: Socket) => void;
  /** Handshake deadlines, pending connections per IP, the connection budget (connection-limits.ts). */
  readonly limits: ConnectionLimits;
  private readonly range: RangeServers;

  constructor(private readonly opts: SocksListenerOptions) {
    this.server = net.createServer({ noDelay: true }, (socket) => this.accept(socket, null));
    this.range = new RangeServers(opts.host, opts.portRange, (socket, port) => this.accept(socket, { protocol: 'socks5', port }), { noDelay: true }, (err) =>
      this.limits.acceptError(err),
    );
    this.limits = new ConnectionLimits({ listener: 'socks', ...opts.limits, log: opts.log });
    const { sockets, limits } = this;
    this.onSocketClose = function (this: Socket) {
      sockets.delete(this);
      limits.closed(this);
      opts.live.release(this);
    };
  }

  async listen(): Promise<void> {
    await this.listenMain();
    await this.range.listen();
  }

  private listenMain(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.removeListener('error', reject);
        this.port = (this.server.address() as net.AddressInfo).port;
        // A failed accept (EMFILE) is an 'error' of the listening server: logged, never fatal.
        this.server.on('error', (err: NodeJS.ErrnoException) => this.limits.acceptError(err));
        resolve();
      });
    });
  }

  /** Stops accepting and destroys every connection. */
  close(): Promise<void> {
    const closed = Promise.all([new Promise<void>((resolve) => this.server.close(() => resolve())), this.range.close()]).then(() => undefined);
    for (const s of this.sockets.toArray()) s.destroy();
    return closed;
  }

  private accept(socket: Socket, at: Arrival | null): void {
    // Its deadline stays armed after a refusal too: a client that does not close after our last word is dropped.
    const handshake = this.limits.admit(socket, this.sockets.size);
    if (!handshake) return;
    this.sockets.add(socket);
    // `on`, not `once`: 'close' comes once anyway, and `once` wraps each listener in a bound function.
    socket.on('close', this.onSocketClose);
    // Resets are normal; a socket without an 'error' listener would take the process down.
    socket.on('error', destroySelf);

    let stage = Stage.Greeting;
    let input: Buffer = Buffer.alloc(0);
    let admission: Admission | null = null;
    let owed: Buffer | null = null;

    /** Ends the handshake with a last message; end() flushes it before FIN (the timeout still applies). */
    const finish = (last: Buffer): number => {
      stage = Stage.Done;
      socket.end(owe(owed, last));
      return -1;
    };
    /** Not SOCKS5: drop without a word. */
    const drop = (): number => {
      stage = Stage.Done;
      socket.destroy();
      return -1;
    };

    /**
     * The end of authentication, by credentials (`selected` AUTH_OK, `failed` the RFC 1929 failure) or by
     * the client's address (`selected` method 0x00, `failed` no acceptable method — exactly what a client
     * offering no password got before allowlists, so an unlisted address learns nothing). False when it
     * ended the handshake.
     */
    const authenticated = (a: Admission, selected: Buffer, failed: Buffer): boolean => {
      admission = a;
      if (!a.ok && (a.reason === 'BAD_CREDENTIALS' || a.reason === 'TOO_MANY_FAILURES')) {
        const failure = this.refused(a.reason, failed);
        if (!a.delayMs) {
          finish(failure);
          return false;
        }
        // Slowed: the answer (and what is owed before it) goes late; nothing more is read meanwhile.
        stage = Stage.Done;
        socket.pause();
        const last = owe(owed, failure);
        owed = null;
        expireAt(Date.now() + a.delayMs, () => socket.end(last));
        return false;
      }
      handshake.authenticated();
      // Valid credentials or a listed address pass; any other refusal is the REP of the request, where SOCKS has codes.
      owed = owe(owed, selected);
      stage = Stage.Request;
      return true;
    };

    /** An admission that first re-reads the store (admission.ts): nothing is read until it is decided. */
    const admit = (username: string, password: string, selected: Buffer, failed: Buffer): boolean => {
      const a = admitFrom(handshake.ip, at, username, password, this.opts.authority, this.opts.chooser, this.opts.failures, (ip) => this.limits.knows(ip));
      if (!(a instanceof Promise)) return authenticated(a, selected, failed);
      stage = Stage.Waiting;
      socket.pause();
      void a.then((decided) => {
        if (socket.destroyed || stage !== Stage.Waiting || !authenticated(decided, selected, failed)) return;
        socket.resume();
        onData(EMPTY);
      });
      return true;
    };

    /** Consumes one message from `input`; returns bytes used, 0 when more input is needed. */
    const step = (): number => {
      switch (stage) {
        case Stage.Greeting: {
          // RFC 1928 §3: VER | NMETHODS | METHODS
          if (input.length < 2) return 0;
          if (input[0] !== VERSION || input[1] === 0) return drop();
          const size = 2 + input[1]!;
          if (input.length < size) return 0;
          const methods = input.subarray(2, size);
          // Credentials win when the client has them; only a client offering none is looked up by its address.
          if (!methods.includes(METHOD_USER_PASS)) {
            if (!methods.includes(METHOD_NO_AUTH)) return finish(this.refused('PROTOCOL', NO_METHOD));
            return admit('', '', NO_AUTH_SELECTED, NO_METHOD) ? size : -1;
          }
          owed = owe(owed, USER_PASS_SELECTED);
          stage = Stage.Auth;
          return size;
        }
        case Stage.Auth: {
          // RFC 1929 §2: VER | ULEN | UNAME | PLEN | PASSWD
          if (input.length < 2) return 0;
          if (input[0] !== AUTH_VERSION) return drop();
          const ulen = input[1]!;
          if (input.length < 3 + ulen) return 0;
          const plen = input[2 + ulen]!;
          const size = 3 + ulen + plen;
          if (input.length < size) return 0;
          const username = input.toString('utf8', 2, 2 + ulen);
          const password = input.toString('utf8', 3 + ulen, size);
          return admit(username, password, AUTH_OK, AUTH_FAILED) ? size : -1;
        }
        case Stage.Request: {
          // RFC 1928 §4: VER | CMD | RSV | ATYP | DST.ADDR | DST.PORT
          if (input.length < 5) return 0;
          if (input[0] !== VERSION) return drop();
          let host: string;
          let size: number;
          switch (input[3]) {
            case ATYP_IPV4:
              size = 10;
              if (input.length < size) return 0;
              host = `${input[4]}.${input[5]}.${input[6]}.${input[7]}`;
              break;
            case ATYP_DOMAIN:
              size = 7 + input[4]!;
              if (input.length < size) return 0;
              host = input.toString('latin1', 5, 5 + input[4]!);
              break;
            case ATYP_IPV6: {
              size = 22;
              if (input.length < size) return 0;
              const groups: string[] = [];
              for (let i = 4; i < 20; i += 2) groups.push(input.readUInt16BE(i).toString(16));
              host = groups.join(':');
              break;
            }
            default:
              return finish(this.refused('PROTOCOL', reply(SOCKS_REPLY.ADDRESS_TYPE_NOT_SUPPORTED)));
          }
          const port = input.readUInt16BE(size - 2);
          if (input[1] !== CMD_CONNECT) return finish(this.refused('PROTOCOL', reply(SOCKS_REPLY.COMMAND_NOT_SUPPORTED)));
          if (!admission?.ok) return finish(this.refusal(admission ? admission.reason : 'INTERNAL'));
          if (host === '' || port === 0) return finish(this.refusal('BAD_TARGET'));
          stage = Stage.Done;
          socket.removeListener('data', onData);
          this.connect(socket, admission, host, port, input.subarray(size), owed, handshake);
          return -1;
        }
        default:
          return -1;
      }
    };

    const onData = (chunk: Buffer) => {
      input = input.length === 0 ? chunk : Buffer.concat([input, chunk]);
      for (;;) {
        const used = step();
        if (used <= 0) break;
        input = input.subarray(used);
      }
      // Waiting for the client's next message: what it is owed goes now.
      if (stage !== Stage.Done && owed) {
        socket.write(owed);
        owed = null;
      }
      if (stage !== Stage.Done && input.length > MAX_HANDSHAKE) socket.destroy();
    };
    socket.on('data', onData);
  }

  /** `owed`: handshake answers not yet written, sent ahead of the request's reply. */
  private connect(socket: Socket, admission: Admission & { ok: true }, host: string, port: number, early: Buffer, owed: Buffer | null, handshake: Handshake): void {
    // The handshake is done; dialing has its own deadline.
    handshake.headComplete();
    socket.pause();
    let cancel = () => undefined as void;
    const onClientClose = () => cancel();
    socket.once('close', onClientClose);
    cancel = dialWithFailover(this.opts, admission, host, port, (failure, upstream, key) => {
      socket.removeListener('close', onClientClose);
      if (failure || !upstream) return void socket.end(owe(owed, this.refusal(failure ?? 'UPSTREAM_ERROR')));
      if (socket.destroyed) return void upstream.destroy();
      // Billed from the greeting on: the handshake is traffic too. Refused when the budget is spent or
      // the account holds its limit of connections.
      const refusal = this.opts.live.claim(socket, key, 0);
      if (refusal) {
        upstream.destroy();
        return void socket.end(owe(owed, this.refusal(refusal)));
      }
      socket.write(owe(owed, GRANTED));
      if (early.length > 0) upstream.write(early);
      splice(socket, upstream, this.opts.live.chargeOf(socket)!);
      this.opts.live.tunnelled(socket, upstream);
    });
  }

  /** The reply refusing a request for `reason`, counted. */
  private refusal(reason: GatewayReason): Buffer {
    return this.refused(reason, reply(socksCode(reason)));
  }

  /** `answer`, a refusal for `reason`, once counted. */
  private refused(reason: RefusalReason, answer: Buffer): Buffer {
    this.opts.metrics.refused('socks', reason);
    return answer;
  }
}

function destroySelf(this: Socket): void {
  this.destroy();
}

function socksCode(reason: GatewayReason): number {
  return STATUSES[reason].socks ?? SOCKS_REPLY.NOT_ALLOWED;
}
