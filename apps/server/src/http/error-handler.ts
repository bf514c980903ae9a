import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { TFunction } from 'i18next';
import { AppError } from '../shared/errors';
import { langFromHeader, translator } from '../shared/i18n';

interface Issue {
  code: string;
  message: string;
  params: Record<string, unknown>;
  instancePath: string;
}

/** zod's own texts are English: a rule without an i18n key is described by its kind and limits instead. */
function genericIssue(issue: Issue, t: TFunction): string {
  const p = issue.params;
  const sized = (values: string, text: string, items: string) => (p.origin === 'string' ? text : p.origin === 'array' || p.origin === 'set' ? items : values);
  switch (issue.code) {
    case 'too_small':
      return t(`validation.issue.${sized(p.inclusive === false ? 'greaterThan' : 'tooSmall', 'tooShort', 'tooFew')}`, { minimum: String(p.minimum) });
    case 'too_big':
      return t(`validation.issue.${sized(p.inclusive === false ? 'lessThan' : 'tooBig', 'tooLong', 'tooMany')}`, { maximum: String(p.maximum) });
    case 'invalid_type':
      return t('validation.issue.type');
    case 'invalid_format':
      return t('validation.issue.format');
    case 'invalid_value':
      return t('validation.issue.value');
    default:
      return t('validation.issue.invalid');
  }
}

/** Turns zod issues into one localized sentence; messages that are i18n keys (`validation.*`) are translated. */
function describeIssues(issues: Issue[], t: TFunction): string {
  const parts = issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return t('validation.unknownField', { field: ((issue.params.keys as string[] | undefined) ?? []).join(', ') });
    if (issue.message.startsWith('validation.')) return t(issue.message);
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (!field) return t(issue.code === 'invalid_type' ? 'request.notObject' : 'request.unreadable');
    return t('validation.field', { field, message: genericIssue(issue, t) });
  });
  return [...new Set(parts)].join(' ');
}

/** Fastify's own refusals of a request it could not read, by error code; anything else is `unreadable`. */
const REQUEST_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.emptyJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.bodyTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.mediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.badLength',
};

function requestErrorKey(err: FastifyError): string {
  if (err.code && REQUEST_ERRORS[err.code]) return REQUEST_ERRORS[err.code]!;
  // The JSON parser's own SyntaxError carries no code, only the status Fastify gives it.
  if (err instanceof SyntaxError) return 'request.invalidJson';
  if (err.statusCode === 413) return 'request.bodyTooLarge';
  if (err.statusCode === 415) return 'request.mediaType';
  return 'request.unreadable';
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const t = request.t;
    if (err instanceof AppError) {
      // Every "too soon" says how long in Retry-After too (RFC 9110 §10.2.3), so a client can count down.
      if (err.statusCode === 429 && typeof err.params.seconds === 'number') reply.header('retry-after', String(Math.max(1, Math.ceil(err.params.seconds))));
      return reply.status(err.statusCode).send({ code: err.code, message: t(`errors.${err.code}`, err.params) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        code: v.keyword,
        message: v.message ?? '',
        params: v.params as Record<string, unknown>,
        instancePath: v.instancePath,
      }));
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: t('errors.VALIDATION_FAILED', { detail: describeIssues(issues, t) }) });
    }
    // PostgreSQL refuses U+0000 in text (SQLSTATE 22021, character_not_in_repertoire) where SQLite stores
    // it: the input cannot be kept, which is the caller's error, not the server's.
    if (err.code === '22021') {
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: t('errors.VALIDATION_FAILED', { detail: t('request.nulCharacter') }) });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ code: 'RATE_LIMITED', message: t('errors.RATE_LIMITED', { seconds: 60 }) });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large): said in the caller's
      // language from the catalogue, never Fastify's English err.message.
      const code = status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'VALIDATION_FAILED';
      const message = code === 'VALIDATION_FAILED' ? t('errors.VALIDATION_FAILED', { detail: t(requestErrorKey(err)) }) : t(`errors.${code}`);
      return reply.status(status).send({ code, message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: t('errors.INTERNAL') });
  });

  app.setNotFoundHandler({}, (request, reply) => {
    reply.status(404).send({ code: 'NOT_FOUND', message: request.t('errors.NOT_FOUND') });
  });
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any hook runs — a path parameter longer
 * than `maxParamLength`, a URL it cannot decode — would otherwise be answered in Fastify's own English
 * body. Same envelope and language as every other refusal.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const t = translator(langFromHeader(request.headers['api-lang']));
  const detail = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'request.paramTooLong' : 'request.unreadable';
  void reply.status(400).send({ code: 'VALIDATION_FAILED', message: t('errors.VALIDATION_FAILED', { detail: t(detail) }) });
}
