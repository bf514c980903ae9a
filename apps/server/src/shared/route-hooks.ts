import type { RouteOptions } from 'fastify';

type RouteHookName = 'onRequest' | 'preHandler' | 'onSend';

/**
 * Adds a hook to one route as it is registered (from an `onRoute` hook). A hook that only some routes
 * need, keyed by their `config`, is cheaper this way than an app-wide hook that looks the config up on
 * every request (`request.routeOptions` builds a new object each time it is read). Route hooks run after
 * the app's, in the order they were added (docs/architecture.md#a-signed-in-requests-own-cost).
 */
export function addRouteHook<K extends RouteHookName>(route: RouteOptions, name: K, hook: NonNullable<RouteOptions[K]> extends infer H ? (H extends readonly (infer F)[] ? F : H) : never): void {
  const current = route[name] as unknown;
  const list = current === undefined ? [] : Array.isArray(current) ? current : [current];
  (route as unknown as Record<K, unknown>)[name] = [...list, hook];
}
