import { z } from 'zod';
import { pageOf, pageQuery } from './envelope';

/**
 * What a sign-in attempt came to (docs/business-rules.md#login: every attempt is a row). `invalid`: the
 * body failed its schema but named an account. Every result but `success` is a failure.
 */
export const LOGIN_RESULTS = ['success', 'bad-password', 'unknown-account', 'bad-captcha', 'locked', 'disabled', 'invalid'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/** Without `from`/`to` the analysis covers this many days up to today (UTC); at most LOGIN_ANALYSIS_MAX_DAYS at once. */
export const LOGIN_ANALYSIS_DEFAULT_DAYS = 30;
export const LOGIN_ANALYSIS_MAX_DAYS = 92;
/** Rows in each of the summary's two top lists. */
export const LOGIN_ANALYSIS_TOP = 10;

/** Filters of `GET /manage/logs` and its CSV export: UTC dates, both inclusive. */
export const loginAnalysisFilters = z.object({
  email: z.string().trim().max(254).optional(),
  ip: z.string().trim().max(64).optional(),
  result: z.enum(LOGIN_RESULTS, { error: 'validation.loginResult' }).optional(),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
});
export type LoginAnalysisFilters = z.infer<typeof loginAnalysisFilters>;

export const loginAnalysisQuery = pageQuery.extend(loginAnalysisFilters.shape);
export type LoginAnalysisQuery = z.infer<typeof loginAnalysisQuery>;

export const loginLogDto = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Null when the account named no user. */
  userId: z.number().int().nullable(),
  email: z.string().nullable(),
  /** The account name or email as typed (trimmed and lower-cased, the form it is matched in). */
  account: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  result: z.enum(LOGIN_RESULTS),
});
export type LoginLogDto = z.infer<typeof loginLogDto>;

export const loginSummaryDto = z.object({
  /** The window the list and summary cover (defaults applied). */
  from: z.string(),
  to: z.string(),
  /** Every day of the window, oldest first, days without attempts included. */
  days: z.array(z.object({ date: z.string(), attempts: z.number().int(), failures: z.number().int() })),
  topFailingIps: z.array(z.object({ ip: z.string().nullable(), failures: z.number().int(), accounts: z.number().int(), lastAt: z.string() })),
  /** Accounts whose failed attempts came from the most IP addresses (at least two). */
  spreadAccounts: z.array(z.object({ account: z.string(), ips: z.number().int(), failures: z.number().int(), lastAt: z.string() })),
});
export type LoginSummaryDto = z.infer<typeof loginSummaryDto>;

export const loginAnalysisResponse = pageOf(loginLogDto).extend({ summary: loginSummaryDto });
export type LoginAnalysisResponse = z.infer<typeof loginAnalysisResponse>;
