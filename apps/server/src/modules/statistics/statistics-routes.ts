import { envelope, errorBody, statisticsDto, statisticsQuery } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import { sendCsvSections } from '../exports/csv-sections';
import { statisticsCsvSections } from './statistics-csv';
import { type StatisticsService, statisticsRange } from './statistics-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody };

/** `GET /manage/statistics`: the admin's figures per period, breakdowns, summary and margin; as CSV with an export ticket. */
export const statisticsRoutes: FastifyPluginAsyncZod<{ service: StatisticsService; clock: Clock }> = async (app, { service, clock }) => {
  app.get(
    '/manage/statistics',
    {
      config: { access: 'admin', export: 'statistics' },
      schema: { tags: ['admin', 'statistics'], querystring: statisticsQuery, response: { 200: envelope(statisticsDto), ...errors } },
    },
    async (request, reply) => {
      const range = statisticsRange(request.query, clock.now());
      if ('invalid' in range) throw new AppError('VALIDATION_FAILED', { detail: request.t(range.invalid, { days: range.days ?? 0 }) });
      const report = await service.report(range);
      // Two tables in one file: the figures per period, then the margin (docs/api.md#csv-exports).
      if (request.csvExport) return sendCsvSections(request, reply, statisticsCsvSections(report, request.t('csv.statistics.total')));
      return { data: report };
    },
  );
};
