import type { FastifyInstance } from 'fastify';

/** What the onResponse hook reports (ops/metrics.ts); `route` is a pattern or `unmatched`. */
export type RequestAnswered = (method: string, route: string, status: number, seconds: number) => void;

/**
 * Times every answered request by its route's pattern (`/api/orders/:id`), never by its URL: ids and
 * tokens in paths must not become label values, and an unmatched URL is anyone's choice of text.
 */
export function timeRequests(app: FastifyInstance, answered: RequestAnswered): void {
  app.addHook('onResponse', (request, reply, done) => {
    answered(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
