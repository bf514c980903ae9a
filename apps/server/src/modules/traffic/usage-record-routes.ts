import { USAGE_RECORD_MAX_DAYS, type UsageRecordDto, type UsageRecordFilters, envelope, errorBody, usageRecordFilters, usageRecordPage, usageRecordQuery } from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import { AppError } from '../../shared/errors';
import type { Clock } from '../../lib/clock';
import { replyCsv } from '../exports/csv';
import { usageRange } from './usage-range';
import { usageRecordCsvColumns } from './usage-record-csv';
import type { UsageRecordFilter, UsageRecordRepository, UsageRecordRow } from './usage-record-repository';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody };

const toDto = (r: UsageRecordRow): UsageRecordDto => ({
  bucket: r.bucket,
  accountId: r.account_id,
  username: r.username,
  accountDeleted: r.deleted_at !== null,
  staticIp: r.static_ip,
  country: r.country || null,
  bytesUp: r.bytes_up,
  bytesDown: r.bytes_down,
});

/**
 * `GET /record/usage`: the signed-in customer's metered usage by time bucket, proxy account and country;
 * `GET /record/usage/export`: the same rows as CSV. The file is fetched with the bearer header and saved by
 * the page, as Get Proxy's export is: a customer's own data needs no ticket in a URL.
 */
export const usageRecordRoutes: FastifyPluginAsyncZod<{ records: UsageRecordRepository; clock: Clock }> = async (app, { records, clock }) => {
  const config = { access: 'customer' as const };
  const tags = ['traffic'];

  const filterOf = (request: FastifyRequest, query: UsageRecordFilters): UsageRecordFilter => {
    const { granularity, accountId, country } = query;
    const range = usageRange(query, clock.now());
    if ('invalid' in range) throw new AppError('VALIDATION_FAILED', { detail: request.t(range.invalid, { days: USAGE_RECORD_MAX_DAYS }) });
    // The user id bounds every row: another user's account id simply matches nothing.
    return { userId: currentAuth(request).user.id, granularity, accountId, country, ...range };
  };

  app.get('/record/usage', { config, schema: { security: keyScope('read'), tags, querystring: usageRecordQuery, response: { 200: envelope(usageRecordPage), ...errors } } }, async (request) => {
    const q = request.query;
    const found = await records.page(filterOf(request, q), q.page, q.pageSize);
    return {
      data: { items: found.items.map(toDto), total: found.total, page: q.page, pageSize: q.pageSize, totals: { bytesUp: found.bytesUp, bytesDown: found.bytesDown } },
    };
  });

  app.get('/record/usage/export', { config, schema: { security: keyScope('read'), tags, querystring: usageRecordFilters, response: errors } }, async (request, reply) => {
    const filter = filterOf(request, request.query);
    return replyCsv(request, reply, 'usage', `usage-${filter.from}-${filter.to}.csv`, usageRecordCsvColumns, await records.all(filter));
  });
};
