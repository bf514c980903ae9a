import { normalizeLang } from '@resi/contract';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import { addRouteHook } from '../../shared/route-hooks';
import { translator } from '../../shared/i18n';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { ExportTicketService } from './export-tickets';

/** What an export URL adds to a list's filters (docs/api.md#csv-exports): the ticket, the file's language, and the key export URLs drop. */
const EXPORT_PARAMS = ['token', 'lang', 'YTO-TGC'] as const;
type ExportParams = Partial<Record<(typeof EXPORT_PARAMS)[number], unknown>>;

/** Takes the export keys out of the query before the route's schema sees it: they are never filters. */
function takeExportParams(request: FastifyRequest): ExportParams {
  const query = request.query as Record<string, unknown> | undefined;
  const params: ExportParams = {};
  if (!query) return params;
  for (const key of EXPORT_PARAMS) {
    if (key in query) {
      params[key] = query[key];
      delete query[key];
    }
  }
  return params;
}

/** `2026-11-23T08:05:09.000Z` → `20261123-080509`, the UTC time in an export's file name. */
export const fileStamp = (d: Date): string => d.toISOString().slice(0, 19).replaceAll('-', '').replaceAll(':', '').replace('T', '-');

/**
 * Export-capable routes (`config.export`: GET list routes) also answer all their matching rows as a CSV
 * file when the browser opens them in a new tab with `?token=<export ticket>` and no Authorization header
 * (docs/api.md#csv-exports). This hook runs before the access guard: it takes the export keys out of the query
 * before validation, spends the ticket and signs the request in as the ticket's user; the guard then
 * applies the route's access policy exactly as for a session. `token` is only ever looked up as a ticket,
 * so a session token in a URL signs nothing in; on other routes it is not read at all.
 */
export function registerExportRequests(app: FastifyInstance, tickets: ExportTicketService, clock: Clock, audit: AuditLogRepository): void {
  app.decorateRequest('csvExport', null);
  const signIn = async (request: FastifyRequest, name: string) => {
    const params = takeExportParams(request);
    if (request.method !== 'GET' || request.headers.authorization !== undefined || params.token === undefined) return;
    // A new tab sends no Api-Lang header: `lang` chooses the language of the file's headers and of any error.
    if (params.lang !== undefined) {
      request.lang = normalizeLang(params.lang);
      request.t = translator(request.lang);
    }
    const user = typeof params.token === 'string' && params.token !== '' ? await tickets.redeem(params.token) : null;
    if (!user) throw new AppError('EXPORT_TICKET_INVALID');
    request.auth = { user, sessionId: null };
    request.csvExport = { name, filename: `${name}-${fileStamp(clock.now())}.csv` };
  };
  // Callback hooks (http/app.ts says why), on export routes only: every other route pays nothing for them.
  const signInHook =
    (name: string): onRequestHookHandler =>
    (request, _reply, done) => {
      signIn(request, name).then(() => done(), done);
    };

  // A file of a whole list leaves with an audit row (who, which list, the filters, how many rows) or not
  // at all: onSend runs before the bytes go out, and a failed write turns the answer into an error.
  const auditHook: onSendHookHandler = (request, reply, payload, done) => {
    const file = request.csvExport;
    if (!file || file.rows === undefined || reply.statusCode !== 200 || !request.auth) return done(null, payload);
    // Paging is ignored by an export, so it is not a filter worth recording.
    const { page: _page, pageSize: _pageSize, ...filters } = (request.query ?? {}) as Record<string, unknown>;
    audit
      .write({
        actorId: request.auth.user.id,
        action: `export.${file.name}`,
        target: `export:${file.name}`,
        after: { filters, rows: file.rows, filename: file.filename },
        ip: request.ip,
      })
      .then(() => done(null, payload), done);
  };

  // Registered before the access guard's (http/app.ts), so a ticket signs the request in before the guard looks.
  app.addHook('onRoute', (route) => {
    const name = route.config?.export;
    if (!name) return;
    addRouteHook(route, 'onRequest', signInHook(name));
    addRouteHook(route, 'onSend', auditHook);
  });
}
