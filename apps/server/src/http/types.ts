import type { ConnectionCap } from './connection-cap';
import type { RateLimitName } from './rate-limits';

// What modules need on a request (auth, language, export) is declared in shared/request-context.ts.
declare module 'fastify' {
  interface FastifyInstance {
    /** Connections refused because their address had API_MAX_CONNECTIONS_PER_IP open (tests, figures). */
    connectionCap: ConnectionCap;
  }
  interface FastifyContextConfig {
    /** Counts the route's requests against the named limit (http/rate-limits.ts): per IP, and per user where set. */
    limit?: RateLimitName;
  }
}
