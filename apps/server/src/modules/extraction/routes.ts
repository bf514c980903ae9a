import { emptyBody, envelope, errorBody, extractKeyDto, extractKeyPrefixDto, extractQuery, extractSeparator, extractedProxyDto, idParams } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langFromHeader, translator } from '../../shared/i18n';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import type { ExtractionService } from './extraction-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const CSV_HEADER = 'host,port,protocol,username,password,country,state,city,session,expires_at';

/** Extraction keys (customer) and the extraction link itself (DESIGN §13, docs/gateway.md#extraction). */
export const extractionRoutes: FastifyPluginAsyncZod<{ extraction: ExtractionService }> = async (app, { extraction }) => {
  const config = { access: 'customer' as const };
  const tags = ['proxies'];

  app.post('/proxy/dynamic/:id/extract-key', { config, schema: { security: keyScope('extract'), tags, params: idParams, body: emptyBody, response: { 200: envelope(extractKeyDto), ...errors } } }, async (request) => ({
    data: { key: await extraction.rotateKey(currentAuth(request).user.id, request.params.id) },
    message: request.t('messages.saved'),
  }));

  app.get('/proxy/static/extract-key', { config, schema: { security: keyScope('extract'), tags, response: { 200: envelope(extractKeyPrefixDto), ...errors } } }, async (request) => ({
    data: { prefix: await extraction.staticKeyPrefix(currentAuth(request).user.id) },
  }));

  app.post('/proxy/static/extract-key', { config, schema: { security: keyScope('extract'), tags, body: emptyBody, response: { 200: envelope(extractKeyDto), ...errors } } }, async (request) => ({
    data: { key: await extraction.rotateKey(currentAuth(request).user.id, null) },
    message: request.t('messages.saved'),
  }));

  /**
   * The link programs call: the key is the credential (no session), the caller's address is checked
   * against the allowlist. `txt` and `csv` are plain text joined by `sep`; `json` is the usual envelope.
   */
  app.get(
    '/extract',
    {
      config: { access: 'public', limit: 'extract' },
      // `lang=` for callers that cannot set Api-Lang; first, so a refusal of the rate limit is in it too.
      onRequest: (request, _reply, done) => {
        const lang = (request.query as { lang?: unknown }).lang;
        if (request.headers['api-lang'] === undefined && typeof lang === 'string') {
          request.lang = langFromHeader(lang);
          request.t = translator(request.lang);
        }
        done();
      },
      schema: { tags, querystring: extractQuery, response: { 200: z.union([z.string(), envelope(z.object({ items: z.array(extractedProxyDto) }))]), ...errors, 402: errorBody, 429: errorBody, 503: errorBody } },
    },
    async (request, reply) => {
      const q = request.query;
      const items = await extraction.extract(q, request.ip);
      void reply.header('cache-control', 'no-store');
      if (q.format === 'json') return { data: { items } };
      const sep = extractSeparator(q.sep);
      const rows = q.format === 'txt' ? items.map((i) => i.line) : [CSV_HEADER, ...items.map(csvRow)];
      return reply.type('text/plain; charset=utf-8').send(rows.join(sep));
    },
  );
};

function csvRow(i: z.infer<typeof extractedProxyDto>): string {
  // Every field is an address, a number, a name of [a-z0-9_-] or an ISO time: nothing to quote.
  return [i.host, i.port, i.protocol, i.username ?? '', i.password ?? '', i.country ?? '', i.state ?? '', i.city ?? '', i.session ?? '', i.expiresAt].join(',');
}
