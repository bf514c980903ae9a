import type { AccessPolicy, Lang } from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { TFunction } from 'i18next';
import type { UserRow } from '../db/rows';
import type { ApiKeyAuth } from './key-scope';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route: who may call it (docs/api.md#sign-in-and-roles). */
    access?: AccessPolicy;
    /**
     * Marks a GET list route as exportable (docs/api.md#csv-exports): opened with `?token=<export ticket>` it
     * answers its rows as CSV. The value names the file and the header keys (`csv.<export>.*`).
     */
    export?: string;
  }
  interface FastifyRequest {
    lang: Lang;
    t: TFunction;
    /** Set by the access guard on every non-public route; `sessionId` is null when an export ticket signed in. */
    auth: { user: UserRow; sessionId: number | null } | null;
    /** Set by the access guard when the request was signed in with an API key (docs/api.md#programs). */
    apiKey: ApiKeyAuth | null;
    /** Set when an export ticket signed this request in: the handler answers a CSV file (modules/exports). */
    csvExport: { name: string; filename: string; rows?: number } | null;
  }
}

/** The signed-in user of a guarded route (the guard has already refused anonymous requests). */
export function currentAuth(request: FastifyRequest): NonNullable<FastifyRequest['auth']> {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth;
}

/** The session of a guarded route, for what only a session may do (log out, change the password). */
export function currentSession(request: FastifyRequest): { user: UserRow; sessionId: number } {
  const { user, sessionId } = currentAuth(request);
  if (sessionId === null) throw new AppError('UNAUTHENTICATED');
  return { user, sessionId };
}
