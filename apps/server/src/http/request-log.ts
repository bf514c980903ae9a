import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';
import { LogController } from 'fastify';

type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger (`request.log`) that becomes a pino child only when something logs through it.
 * Fastify makes a child with the request id for every request; most requests write nothing but their one
 * line, which OneLinePerRequest writes through the parent with the id in it, so the child (a copy of the
 * logger and its serialized bindings) was made for nothing on nearly every request
 * (docs/architecture.md#a-signed-in-requests-own-cost).
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    readonly parent: FastifyBaseLogger,
    readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }

  /** Whether a line at `level` would be written, without making the child (a route's `logLevel` counts). */
  enabled(level: 'info'): boolean {
    const values = (this.parent as FastifyBaseLogger & { levels?: { values: Record<string, number> } }).levels?.values;
    return values ? values[level]! >= values[this.level]! : true;
  }

  fatal(...args: LogArgs) {
    this.real.fatal(...args);
  }
  error(...args: LogArgs) {
    this.real.error(...args);
  }
  warn(...args: LogArgs) {
    this.real.warn(...args);
  }
  info(...args: LogArgs) {
    this.real.info(...args);
  }
  debug(...args: LogArgs) {
    this.real.debug(...args);
  }
  trace(...args: LogArgs) {
    this.real.trace(...args);
  }
  silent(...args: LogArgs) {
    this.real.silent(...args);
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, opts);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child for pino; any other logger (none configured) as it comes. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (!('levels' in logger)) return logger.child(bindings, opts);
  return new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}

/**
 * One line per answered request, holding the request (method, redacted URL, client address) beside the
 * answer (status, time), instead of Fastify's two ("incoming request", then "request completed"): each
 * line is serialized and written, a visible share of a signed-in request's cost
 * (docs/architecture.md#a-signed-in-requests-own-cost). A request its client abandons before the answer
 * leaves no line (docs/configuration.md, LOG_LEVEL). Error lines are Fastify's own.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    const log = reply.log as unknown;
    if (!(log instanceof LazyRequestLogger)) return reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    // The same line the child would write: the request id comes first, as its binding would.
    if (log.enabled('info')) log.parent.info({ ...log.bindings, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
