import type { AccessPolicy, Lang } from '@resi/contract';
import type { TFunction } from 'i18next';
import type { Selectable } from 'kysely';
import type { UserTable } from '../db/schema';
import type { UsdtWatcher } from '../payments/usdt-watcher';
import type { ConnectionCap } from './connection-cap';
import type { RateLimitName } from './rate-limits';

export type UserRow = Selectable<UserTable>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Polls the TRON API for USDT payments; tests call `pollOnce()` instead of waiting for the timer. */
    usdtWatcher: UsdtWatcher;
    /** Connections refused because their address had API_MAX_CONNECTIONS_PER_IP open (tests, figures). */
    connectionCap: ConnectionCap;
  }
  interface FastifyContextConfig {
    /** Required on every route: who may call it (DESIGN §5.8). */
    access?: AccessPolicy;
    /**
     * Marks a GET list route as exportable (DESIGN §3 Exports): opened with `?token=<export ticket>` it
     * answers its rows as CSV. The value names the file and the header keys (`csv.<export>.*`).
     */
    export?: string;
    /** Counts the route's requests against the named limit (http/rate-limits.ts): per IP, and per user where set. */
    limit?: RateLimitName;
  }
  interface FastifyRequest {
    lang: Lang;
    t: TFunction;
    /** Set by the access guard on every non-public route; `sessionId` is null when an export ticket signed in. */
    auth: { user: UserRow; sessionId: number | null } | null;
    /** Set when an export ticket signed this request in: the handler answers a CSV file (modules/exports). */
    csvExport: { name: string; filename: string; rows?: number } | null;
  }
}
