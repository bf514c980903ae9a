import type { FastifyInstance } from 'fastify';
import { type Readiness, readinessBody } from '../ops/readiness';

/**
 * `GET /healthz` (the process answers) and `GET /readyz` (it can serve: ops/readiness.ts) on the API's
 * port, for load balancers and orchestrators. Outside `/api`: they are not part of the API contract.
 */
export async function healthRoutes(app: FastifyInstance, opts: { readiness: Readiness }): Promise<void> {
  // Probes come every few seconds: their requests are not logged unless something goes wrong.
  const route = { config: { access: 'public' as const }, schema: { hide: true }, logLevel: 'warn' as const };
  app.get('/healthz', route, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', route, async (_request, reply) => {
    const report = await opts.readiness.check();
    reply.header('cache-control', 'no-store').code(report.ready ? 200 : 503);
    return readinessBody(report);
  });
}
