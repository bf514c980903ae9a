import { API_KEY_SCOPES, type ApiKeyScope } from '@resi/contract';

/*
 * Which API key scope a route needs (docs/api.md#programs), declared in the route's schema as its OpenAPI
 * `security`: a console session, or a key with that scope. A route that declares none is closed to keys
 * (the access guard refuses them with API_KEY_NOT_ALLOWED).
 */

type Security = Record<string, string[]>[];

/** What the access guard puts on a request signed in with a key. */
export interface ApiKeyAuth {
  id: number;
  prefix: string;
  scopes: readonly ApiKeyScope[];
  dailySpendCap: number | null;
}

/** `schema: { security: keyScope('read'), … }`. */
export const keyScope = (scope: ApiKeyScope): Security => [{ bearer: [] }, { apiKey: [scope] }];

/** The scope a route's schema declares, or null. */
export function scopeOf(schema: unknown): ApiKeyScope | null {
  const security = (schema as { security?: Security } | undefined)?.security;
  const scope = security?.find((s) => s.apiKey)?.apiKey?.[0];
  return scope && (API_KEY_SCOPES as readonly string[]).includes(scope) ? (scope as ApiKeyScope) : null;
}
