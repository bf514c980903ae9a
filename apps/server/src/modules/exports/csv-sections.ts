import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { type CsvColumn, toCsv } from './csv';

/** One table of a file: its header row is `csv.<name>.<key>` of each column in the caller's language. */
export interface CsvSection {
  rows: number;
  text(request: FastifyRequest): string;
}

export function csvSection<T>(name: string, columns: CsvColumn<T>[], rows: T[]): CsvSection {
  return {
    rows: rows.length,
    text: (request) => {
      const header = (c: CsvColumn<T>) => request.t(`csv.${name}.${c.key}`);
      const headers = columns.map((c) => (c.code ? request.t('csv.code', { column: header(c) }) : header(c)));
      return toCsv(headers, columns, rows, request.lang, request.t);
    },
  };
}

/**
 * An export of several tables in one file (docs/api.md#csv-exports): each with its own header row, an empty
 * line between them, as a spreadsheet shows them one under the other. Each table is written by `toCsv`,
 * so quoting and formula escaping are the same as for a single table; the file has one BOM, at its start.
 */
export function sendCsvSections(request: FastifyRequest, reply: FastifyReply, sections: CsvSection[]): FastifyReply {
  const target = request.csvExport;
  if (!target) throw new AppError('UNAUTHENTICATED');
  // For the export's audit row (export-request.ts), written as the file is sent.
  target.rows = sections.reduce((n, s) => n + s.rows, 0);
  const body = sections.map((s, i) => (i === 0 ? s.text(request) : s.text(request).replace(/^\uFEFF/, ''))).join('\r\n');
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${target.filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
