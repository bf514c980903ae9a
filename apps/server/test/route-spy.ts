import type * as FastifyModule from 'fastify';
import type { RouteOptions } from 'fastify';

/** Every route registered on any Fastify instance of this test file, in order. */
export const seenRoutes: RouteOptions[] = [];

/**
 * Fastify with an onRoute hook added to each instance the moment it is created — before the app's own
 * plugins and routes — so a test sees every route buildApp registers. Use in a test file as
 * `vi.mock('fastify', (original) => import('../../test/route-spy').then((m) => m.withRouteSpy(original)))`;
 * the factory must be written in the file itself (vi.mock is hoisted), the rest lives here.
 */
export async function withRouteSpy(importOriginal: () => Promise<unknown>): Promise<typeof FastifyModule> {
  const actual = (await importOriginal()) as typeof FastifyModule;
  const wrapped = ((opts?: object) => {
    const app = actual.default(opts);
    app.addHook('onRoute', (route) => {
      seenRoutes.push(route);
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: wrapped };
}
