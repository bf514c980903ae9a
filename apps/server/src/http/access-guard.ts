import { ACCESS_POLICIES, canAccess } from '@resi/contract';
import type { AccessPolicy } from '@resi/contract';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors';
import { addRouteHook } from '../shared/route-hooks';

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Every route must say who may call it; a route without a policy stops the server at registration,
 * so nothing can be exposed by forgetting. The guard then decides per request on the server side, with
 * the auth module's sessions (`app.sessions`). Registered after the export hooks, which may already have
 * signed a request in, and before any route, so that every route gets both.
 */
export const accessGuard = fp(
  async (app) => {
    const { sessions } = app;
    // A callback hook: a session the cache knows is checked without waiting for anything (http/app.ts).
    const guard =
      (access: Exclude<AccessPolicy, 'public'>): onRequestHookHandler =>
      (request, _reply, done) => {
        const admit = (auth: FastifyRequest['auth']) => {
          if (!auth) return done(new AppError('UNAUTHENTICATED'));
          request.auth = auth;
          if (!canAccess(access, { role: auth.user.role, isDistributor: auth.user.is_distributor === 1 })) return done(new AppError('FORBIDDEN'));
          done();
        };
        // An export ticket may already have signed the request in (modules/exports): the same policy applies.
        if (request.auth) return admit(request.auth);
        const token = bearerToken(request);
        if (!token) return admit(null);
        const known = sessions.remembered(token);
        if (known) return admit(known);
        sessions.authenticate(token).then(admit, done);
      };
    // Each route gets its policy's guard as it is registered; public routes and unmatched URLs (the
    // not-found handler exposes nothing) get none.
    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      if (!access || !ACCESS_POLICIES.includes(access)) {
        throw new Error(`Route ${String(route.method)} ${route.url} has no access policy (config.access)`);
      }
      if (access !== 'public') addRouteHook(route, 'onRequest', guard(access));
    });
    app.decorateRequest('auth', null);
  },
  { name: 'access-guard', dependencies: ['export-requests', 'auth-sessions'], decorators: { fastify: ['sessions'] } },
);
