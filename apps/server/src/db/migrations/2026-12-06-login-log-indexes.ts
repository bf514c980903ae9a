import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Login analysis (docs/data-model.md#login-logs) reads a window of days from a table that grows with
 * every sign-in attempt:
 * - `(created_at, result, ip, account)` is walked for a window, newest first, for the list's pages and its
 *   count, and the summary's attempts per day are read from it alone.
 * - `(result, created_at, ip, account)` serves the list filtered by a result, and the summary's failing
 *   IPs and accounts failed from many IPs read only the failures' part of it.
 * - `(user_id, created_at)`, for one user's recent sign-ins, comes with 2026-12-05-user-admin.
 * The old `failed` result is split into what it was: a known user with a wrong password, or no such account;
 * `captcha` is renamed `bad-captcha`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('login_logs').set({ result: 'bad-password' }).where('result', '=', 'failed').where('user_id', 'is not', null).execute();
  await db.updateTable('login_logs').set({ result: 'unknown-account' }).where('result', '=', 'failed').execute();
  await db.updateTable('login_logs').set({ result: 'bad-captcha' }).where('result', '=', 'captcha').execute();
  await db.schema.createIndex('login_logs_window_idx').on('login_logs').columns(['created_at', 'result', 'ip', 'account']).execute();
  await db.schema.createIndex('login_logs_result_idx').on('login_logs').columns(['result', 'created_at', 'ip', 'account']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['login_logs_window_idx', 'login_logs_result_idx']) await db.schema.dropIndex(name).execute();
  await db.updateTable('login_logs').set({ result: 'failed' }).where('result', 'in', ['bad-password', 'unknown-account']).execute();
  await db.updateTable('login_logs').set({ result: 'captcha' }).where('result', '=', 'bad-captcha').execute();
}
