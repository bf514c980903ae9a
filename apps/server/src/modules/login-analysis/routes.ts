import { LOGIN_ANALYSIS_MAX_DAYS, envelope, errorBody, loginAnalysisQuery, loginAnalysisResponse } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import { sendCsv } from '../exports/csv';
import type { LoginAnalysisRepository, LoginLogFilter } from './login-analysis-repository';
import { datesOf, loginWindow } from './login-analysis-window';
import { loginLogCsvColumns } from './login-log-csv';
import { toLoginLogDto } from './login-log-dto';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody };

/**
 * `GET /manage/logs`: the admin's login analysis (docs/api.md#login-analysis), a page of sign-in attempts with a
 * summary over the same filter; opened with an export ticket, every matching row as CSV.
 */
export const loginAnalysisRoutes: FastifyPluginAsyncZod<{ logs: LoginAnalysisRepository; clock: Clock }> = async (app, { logs, clock }) => {
  app.get(
    '/manage/logs',
    {
      config: { access: 'admin', export: 'logins' },
      schema: { tags: ['admin'], querystring: loginAnalysisQuery, response: { 200: envelope(loginAnalysisResponse), ...errors } },
    },
    async (request, reply) => {
      const { email, ip, result, page, pageSize } = request.query;
      const window = loginWindow(request.query, clock.now());
      if ('invalid' in window) throw new AppError('VALIDATION_FAILED', { detail: request.t(window.invalid, { days: LOGIN_ANALYSIS_MAX_DAYS }) });
      const filter: LoginLogFilter = { ...window, email: email?.toLowerCase() || undefined, ip: ip || undefined, result };
      if (request.csvExport) return sendCsv(request, reply, loginLogCsvColumns, await logs.all(filter));

      const { items, total } = await logs.page(filter, page, pageSize);
      const summary = await logs.summary(filter);
      const counted = new Map(summary.days.map((d) => [d.date, d]));
      const days = datesOf(window).map((date) => counted.get(date) ?? { date, attempts: 0, failures: 0 });
      return { data: { items: items.map(toLoginLogDto), total, page, pageSize, summary: { ...window, ...summary, days } } };
    },
  );
};
