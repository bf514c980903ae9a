import { ACCESS_POLICIES, canAccess } from '@resi/contract';
import type { AccessPolicy, ApiKeyScope } from '@resi/contract';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { isApiKey } from '../modules/api-keys/api-key-service';
import { AppError } from '../shared/errors';
import { scopeOf } from '../shared/key-scope';
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
    const { sessions, apiKeys } = app;
    // A callback hook: a session the cache knows is checked without waiting for anything (http/app.ts).
    const guard =
      (access: Exclude<AccessPolicy, 'public'>, scope: ApiKeyScope | null): onRequestHookHandler =>
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
        // An API key (docs/api.md#programs): valid, from an allowed address, with the route's scope; a route
        // that declares no scope (admin, payoffs, password, e-mail, key management) is closed to keys.
        if (isApiKey(token)) {
          apiKeys.check(token, request.ip).then((checked) => {
            if ('refused' in checked) return done(new AppError(checked.refused, 'ip' in checked ? { ip: checked.ip } : {}));
            if (!scope) return done(new AppError('API_KEY_NOT_ALLOWED'));
            if (!checked.key.scopes.includes(scope)) return done(new AppError('SCOPE_REQUIRED', { scope }));
            request.apiKey = checked.key;
            admit({ user: checked.user, sessionId: null });
          }, done);
          return;
        }
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
      if (access !== 'public') addRouteHook(route, 'onRequest', guard(access, scopeOf(route.schema)));
    });
    app.decorateRequest('auth', null);
    app.decorateRequest('apiKey', null);
  },
  { name: 'access-guard', dependencies: ['export-requests', 'auth-sessions', 'api-key-services'], decorators: { fastify: ['sessions', 'apiKeys'] } },
);
