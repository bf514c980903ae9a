import { envelope, errorBody, statisticsDto, statisticsQuery } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import { sendCsv } from '../exports/csv';
import { statisticsCsvColumns, statisticsCsvRows } from './statistics-csv';
import { type StatisticsService, statisticsRange } from './statistics-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody };

/** `GET /manage/statistics`: the admin's figures per period, breakdowns and summary; as CSV with an export ticket. */
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
      if (request.csvExport) return sendCsv(request, reply, statisticsCsvColumns, statisticsCsvRows(report, request.t('csv.statistics.total')));
      return { data: report };
    },
  );
};
