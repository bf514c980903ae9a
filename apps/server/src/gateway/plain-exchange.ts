import http from 'node:http';
import type { Socket } from 'node:net';
import { Deadline } from './deadlines';
import type { Exit } from './ports';
import type { ProviderHealth } from './provider-health';
import { type DialFailure, REASON_HEADER, STATUSES } from './statuses';

/*
 * The HTTP listener's own request and response classes (node:http's `IncomingMessage` and
 * `ServerResponse` options) and the per-socket state of kept-alive plain HTTP. What each plain request
 * needs — its socket's keep-alive bookkeeping, the answer deadline, why its exit could not be dialled —
 * lives in fields of these objects, and their events go to shared functions: nothing is allocated per
 * request beyond what node:http and the forward (plain-forward.ts) allocate anyway.
 *
 * No long-lived Map or Set ever holds a response. Measured with --trace-gc under kept-alive load: a
 * response kept in the shared deadline Map while it was awaited (even for a few milliseconds) made the
 * scavenges keep and promote several times as much, and the gateway spent 4× bare proxy-chain's time
 * in garbage collection per request. The deadline sweeper holds the socket's state instead, a
 * long-lived object, which points at the awaited responses from a plain field.
 */

/** One client socket of the HTTP listener that carries plain requests. */
export class PlainSocket {
  /** Plain requests received and not yet complete both ways. */
  inFlight = 0;
  /** `bytesRead` when the last request and its response were complete: a clean request boundary. */
  boundary = 0;
  /** Responses whose request was read whole and which are still open, oldest first (with pipelining, several). */
  private awaiting: GatewayResponse[] = [];
  private readonly deadline = new Deadline(() => this.expire());

  /** `handshake`: the socket's request-head deadline, armed again whenever it waits for its next head. */
  constructor(
    private readonly socket: { bytesRead: number },
    private readonly handshake: { awaitHead(): void } | null = null,
  ) {}

  /** A request and its response are complete: the socket's bytes so far belong to it. */
  settle(): void {
    this.inFlight--;
    this.boundary = this.socket.bytesRead;
    // Node's keepAliveTimeout ends an idle wait but stops at the next head's first byte; a slow head is ours.
    if (this.inFlight === 0) this.handshake?.awaitHead();
  }

  await(res: GatewayResponse): void {
    this.awaiting.push(res);
    if (this.awaiting.length === 1) this.deadline.arm(res.dueAt);
  }

  forget(res: GatewayResponse): void {
    const i = this.awaiting.indexOf(res);
    if (i === -1) return;
    this.awaiting.splice(i, 1);
    if (i === 0) this.rearm();
  }

  /** Called by the deadline sweeper: answers every response that is due, then waits for the next one. */
  expire(): void {
    const now = Date.now();
    const due = this.awaiting.filter((r) => r.dueAt <= now);
    this.awaiting = this.awaiting.filter((r) => r.dueAt > now);
    this.rearm();
    for (const res of due) res.late();
  }

  private rearm(): void {
    const next = this.awaiting[0];
    if (next) this.deadline.arm(next.dueAt);
    else this.deadline.cancel();
  }
}

/** The byte budget's counter (live-connections.ts): false when the socket must hold still. */
type Charge = (chunk: { length: number }) => boolean;

/** Where an answer told to hold still learns it may carry on (live-connections.ts). */
interface CarryOn {
  onCarryOn(socket: Socket, then: () => void): void;
}

export class GatewayRequest extends http.IncomingMessage {
  response: GatewayResponse | null = null;

  /** Node's HTTP parser hands each piece of the body here: the upload is counted against the byte budget. */
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk) this.response?.charge?.(chunk as Buffer);
    return super.push(chunk, encoding);
  }
}

export class GatewayResponse extends http.ServerResponse<GatewayRequest> {
  /** Why the exit agent of this request could not connect, when an errno cannot say it (see DialAgent). */
  dialFailure: DialFailure | null = null;
  /** When the head of the answer is due (ms since epoch); 0 until the request is read whole. */
  dueAt = 0;
  private plain: PlainSocket | null = null;
  private answerWithinMs = 0;
  /** Still counted in the socket's `inFlight`. */
  private inFlight = false;
  /** The response finished before the request was read whole: settled at the request's end. */
  private settleAtRequestEnd = false;
  /** The byte budget's counter of the socket's account (live-connections.ts), once the request is admitted. */
  charge: Charge | null = null;
  private carryOn: CarryOn | null = null;
  /** Told the reason when this response answers a failed forward (the listener counts it for the metrics). */
  onFailure: ((failure: DialFailure) => void) | null = null;
  /** The forwarded request (plain-forward.ts): dropped when this response closes first. */
  upstream: http.ClientRequest | null = null;
  /** Where the outcome is counted for its provider's passive health (provider-health.ts); null: not a provider's exit. */
  private health: ProviderHealth | null = null;
  private exit: Exit | null = null;

  /** This request goes out through a provider's exit: its outcome counts for the provider's health. */
  countFor(health: ProviderHealth, exit: Exit): void {
    this.health = health;
    this.exit = exit;
  }

  /** The exit answered with a head (any status but an upstream's own 407): its provider did its part. */
  answered(): void {
    if (this.health) this.health.record(this.exit!, null, null);
  }

  /** From now on the body is charged; `heads`: what this exchange's request and answer heads count as. */
  setCharge(charge: Charge | null, heads: number, carryOn: CarryOn): void {
    this.charge = charge;
    this.carryOn = carryOn;
    charge?.({ length: heads });
  }

  /**
   * The forward writes the origin's body here: each chunk is counted against the byte budget after it is
   * written. When the budget holds still (a shared lease is on its way), the answer says so as a full
   * buffer would: the forward stops reading the origin until 'drain'.
   */
  override write(chunk: unknown, ...rest: unknown[]): boolean {
    const write = http.ServerResponse.prototype.write as (this: http.ServerResponse, ...a: unknown[]) => boolean;
    const ok = write.call(this, chunk, ...rest);
    if (!this.charge || !chunk || this.charge(chunk as Buffer) || !this.socket) return ok;
    this.carryOn?.onCarryOn(this.socket, () => this.emit('drain'));
    return false;
  }

  /**
   * Starts the bookkeeping of a request: in flight on its socket until both it and its response are
   * complete, and answered within `answerWithinMs` of being read whole.
   */
  track(plain: PlainSocket, answerWithinMs: number): void {
    plain.inFlight++;
    this.plain = plain;
    this.inFlight = true;
    this.answerWithinMs = answerWithinMs;
    this.req.response = this;
    this.on('finish', onResponseFinish);
    this.on('close', onResponseClose);
    if (this.req.complete) this.armDeadline();
    else this.req.on('end', onRequestEnd);
  }

  /**
   * A silent exit must not hang a plain request: once the request is read whole, the head of its answer
   * is due within `answerWithinMs` (connecting included), else it is answered 504 UPSTREAM_TIMEOUT and
   * the upstream request is dropped as the response closes. A body that
   * is streaming has no deadline; idle connections end by the peers' own timeouts.
   */
  private armDeadline(): void {
    if (this.writableEnded || this.destroyed || !this.plain) return;
    this.dueAt = Date.now() + this.answerWithinMs;
    this.plain.await(this);
  }

  /**
   * The deadline passed. It counts against the provider only while its connection was still being made: once
   * connected, the wait may be the origin's (a slow site behind a working provider), which is not the provider's
   * fault. A provider that accepts and never answers is caught by tunnels' dials and by the probes.
   */
  late(): void {
    if (this.headersSent || this.writableEnded) return;
    if (this.upstream?.socket?.connecting !== true) this.health = null;
    this.fail('UPSTREAM_TIMEOUT');
  }

  private settle(): void {
    if (!this.inFlight) return;
    this.inFlight = false;
    this.plain?.settle();
  }

  responseFinished(): void {
    if (this.req.complete) this.settle();
    else this.settleAtRequestEnd = true;
  }

  requestEnded(): void {
    if (this.settleAtRequestEnd) this.settle();
    else this.armDeadline();
  }

  responseClosed(): void {
    this.plain?.forget(this);
    // Answered, cut or timed out before the exit answered whole: nothing more is wanted from it. (After a
    // whole answer its request is already marked destroyed and its socket back in the agent's pool.)
    const up = this.upstream;
    this.upstream = null;
    if (up && !up.destroyed) up.destroy();
  }

  /**
   * Answers a forward that failed before any header of the origin was written: our status, reason
   * header and text (statuses.ts); `dialFailure`, when the exit agent named one, says it better than the
   * errno did. After the origin's head went out there is no status to give: the connection is cut.
   */
  fail(failure: DialFailure): void {
    if (this.headersSent) return void this.destroy();
    if (this.writableEnded) return;
    const reason = this.dialFailure ?? failure;
    const s = STATUSES[reason];
    this.onFailure?.(reason);
    // Counted only when it is the provider's (refused, unreachable, its handshake or credentials): provider-health.ts.
    if (this.health) this.health.record(this.exit!, reason, null);
    this.statusCode = s.http;
    this.setHeader(REASON_HEADER, reason);
    this.setHeader('content-type', 'text/plain; charset=utf-8');
    this.end(`${reason}: ${s.message}`);
  }
}

function onResponseFinish(this: GatewayResponse): void {
  this.responseFinished();
}

function onResponseClose(this: GatewayResponse): void {
  this.responseClosed();
}

function onRequestEnd(this: GatewayRequest): void {
  this.response?.requestEnded();
}
