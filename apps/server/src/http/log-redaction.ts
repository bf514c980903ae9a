import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets: export tickets (`token`), session tokens a client put in a
 * URL by mistake, mail and captcha codes, passwords, keys and signatures. Matched on the lower-cased
 * name; `yto-tgc` is a session key an older console's URL may still carry (docs/api.md#csv-exports).
 */
const SECRET_PARAM = /token|ticket|secret|passw|^(code|captcha|key|apikey|api_key|sign|sig|signature|yto-tgc)$/;

/** The URL with the value of every secret query parameter replaced, for a log line. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed escape is logged as it came; the value is judged by the raw name.
      }
      return eq !== -1 && SECRET_PARAM.test(name.toLowerCase()) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * Fastify's request serializer, with the URL redacted: the request logger writes every URL, and export
 * tickets travel in one (docs/api.md#csv-exports). Bodies and headers are not logged at all.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The app's logger options: the caller's (level, stream) with our serializers always on. No pino `redact`
 * paths: pino redacts what the serializers return, and `req` comes out without headers, so paths such as
 * `req.headers.authorization` never matched anything and cost every line a copy of its object.
 */
export function loggerOptions(level: string, custom: boolean | object | undefined): false | object {
  if (custom === false) return false;
  return {
    level,
    ...(typeof custom === 'object' ? custom : {}),
    serializers: { req: serializeRequest },
  };
}
