import type { ProxyEndpoint } from '@resi/contract';

/** What guides may write: `{{host}}`, `{{httpPort}}`, `{{socksPort}}`, `{{checkUrl}}`. */
export const ENDPOINT_PLACEHOLDERS: readonly (keyof ProxyEndpoint)[] = ['host', 'httpPort', 'socksPort', 'checkUrl'];

/** Shown until the endpoint has loaded (or if it cannot): names that read as "put yours here". */
const UNKNOWN: Record<keyof ProxyEndpoint, string> = { host: 'GATEWAY_HOST', httpPort: 'HTTP_PORT', socksPort: 'SOCKS_PORT', checkUrl: 'CHECK_URL' };

/**
 * Puts this gateway's address into a guide. Any other `{{name}}` is left as written, so a typo shows
 * instead of vanishing (and the content test fails on it).
 */
export function fillPlaceholders(markdown: string, endpoint: ProxyEndpoint | undefined): string {
  const values: Record<string, string> = Object.fromEntries(Object.entries(endpoint ?? UNKNOWN).map(([k, v]) => [k, String(v)]));
  return markdown.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}
