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

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A route's methods but HEAD: Fastify adds a HEAD twin to each GET, which answers as its GET does. */
export const methodsOf = (r: RouteOptions): RouteMethod[] => ([] as string[]).concat(r.method as string | string[]).filter((m) => m !== 'HEAD') as RouteMethod[];

/** A route's URL with every parameter filled (`:id` → 1, a trailing wildcard → x). */
export const concrete = (url: string): string => url.replace(/:\w+/g, '1').replace(/\*$/, 'x');
