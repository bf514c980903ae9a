import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

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
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
