import { sql } from 'kysely';

/**
 * `column LIKE %text%`, case as stored. ESCAPE is spelled out: SQLite has no default escape character
 * for LIKE, PostgreSQL's is the backslash; and % and _ in the text are literal, so "a_b" finds "a_b".
 */
export function containsText(column: string, text: string) {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`${sql.ref(column)} like ${`%${escaped}%`} escape '\\'`;
}
