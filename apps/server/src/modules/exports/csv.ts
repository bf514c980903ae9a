import type { Lang } from '@resi/contract';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

/** The request's translator: the catalogues' texts in the caller's language. */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/**
 * One column of an export: its header is `csv.<export name>.<key>` in the server catalogues, or with `code`
 * that header followed by "(code)": the stable value beside its words, for programs and sheet filters.
 */
export interface CsvColumn<T> {
  key: string;
  code?: true;
  value: (row: T, lang: Lang, t: Translate) => string | number | null;
}

/**
 * A value that has words on screen (`dynamic` is "Rotating traffic"): a column with the words of the caller's
 * language (`words.<group>.<code>`), and one with the code itself.
 */
export function wordsAndCode<T>(key: string, group: string, code: (row: T) => string | null): CsvColumn<T>[] {
  return [
    { key, value: (row, _lang, t) => (code(row) === null ? null : t(`words.${group}.${code(row)}`)) },
    { key, code: true, value: (row) => code(row) },
  ];
}

/**
 * RFC 4180 text with a UTF-8 byte order mark (so Excel reads Chinese correctly) and CRLF line ends.
 * Cells starting with `=`, `+`, `-`, `@`, tab or carriage return get a leading `'` so a spreadsheet
 * shows them as text instead of running them as formulas (OWASP "CSV Injection").
 */
export function toCsv<T>(headers: string[], columns: CsvColumn<T>[], rows: T[], lang: Lang, t: Translate): string {
  const records = rows.map((row) => columns.map((c) => c.value(row, lang, t)));
  return stringify([headers, ...records], {
    bom: true,
    escape_formulas: true,
    record_delimiter: 'windows',
    // With CRLF records csv-stringify quotes a field only for a whole CRLF; a lone CR or LF must be quoted too.
    quoted_match: /[\r\n]/,
  });
}

/**
 * Answers an export request (see export-request.ts) with `rows` as a CSV attachment. The whole file is
 * built in memory: fine for the tens of thousands of rows an admin list holds (about 30 MB at 100k
 * orders); past that, switch to csv-stringify's stream API over a Kysely `.stream()` query.
 */
export function sendCsv<T>(request: FastifyRequest, reply: FastifyReply, columns: CsvColumn<T>[], rows: T[]): FastifyReply {
  const target = request.csvExport;
  if (!target) throw new AppError('UNAUTHENTICATED');
  // For the export's audit row (export-request.ts), written as the file is sent.
  target.rows = rows.length;
  return replyCsv(request, reply, target.name, target.filename, columns, rows);
}

/**
 * `rows` as a CSV attachment named `filename`, headers `csv.<name>.*` in the request's language. Also
 * the answer of a customer's own download fetched with the session's bearer header (no ticket, no audit).
 */
export function replyCsv<T>(request: FastifyRequest, reply: FastifyReply, name: string, filename: string, columns: CsvColumn<T>[], rows: T[]): FastifyReply {
  const header = (c: CsvColumn<T>) => request.t(`csv.${name}.${c.key}`);
  const headers = columns.map((c) => (c.code ? request.t('csv.code', { column: header(c) }) : header(c)));
  // A string with a non-JSON content type goes out as it is: the route's JSON response schema (the
  // serializer of fastify-type-provider-zod) only runs for objects and JSON content types.
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(toCsv(headers, columns, rows, request.lang, request.t));
}

/** Minor units as a plain decimal a spreadsheet can sum: `2550`, `USD` → `25.50`; `500`, `JPY` → `500`. */
export function decimalAmount(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code keeps two digits.
  }
  return (minor / 10 ** digits).toFixed(digits);
}
