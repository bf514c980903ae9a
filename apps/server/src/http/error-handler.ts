import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { TFunction } from 'i18next';
import { AppError } from './errors';

interface Issue {
  code: string;
  message: string;
  keys?: string[];
  instancePath: string;
}

/** Turns zod issues into one localized sentence; messages that are i18n keys (`validation.*`) are translated. */
function describeIssues(issues: Issue[], t: TFunction): string {
  const parts = issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return t('validation.unknownField', { field: (issue.keys ?? []).join(', ') });
    if (issue.message.startsWith('validation.')) return t(issue.message);
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return field ? t('validation.field', { field, message: issue.message }) : issue.message;
  });
  return [...new Set(parts)].join(' ');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const t = request.t;
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send({ code: err.code, message: t(`errors.${err.code}`, err.params) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        code: v.keyword,
        message: v.message ?? '',
        keys: (v.params as { keys?: string[] }).keys,
        instancePath: v.instancePath,
      }));
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: t('errors.VALIDATION_FAILED', { detail: describeIssues(issues, t) }) });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ code: 'RATE_LIMITED', message: t('errors.RATE_LIMITED', { seconds: 60 }) });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large): say so without internals.
      const code = status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'VALIDATION_FAILED';
      const message = code === 'VALIDATION_FAILED' ? t('errors.VALIDATION_FAILED', { detail: err.message }) : t(`errors.${code}`);
      return reply.status(status).send({ code, message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: t('errors.INTERNAL') });
  });

  app.setNotFoundHandler({}, (request, reply) => {
    reply.status(404).send({ code: 'NOT_FOUND', message: request.t('errors.NOT_FOUND') });
  });
}
