import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per answered request, holding the request (method, redacted URL, client address) beside the
 * answer (status, time), instead of Fastify's two ("incoming request", then "request completed"):
 * writing a line was a third of a signed-in GET /api/user's own time (docs/configuration.md, LOG_LEVEL).
 * A request its client abandons before the answer leaves no line. Error lines are Fastify's own.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
