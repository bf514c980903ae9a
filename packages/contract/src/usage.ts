import { z } from 'zod';
import { entityId } from './ids';
import { pageOf, pageQuery } from './envelope';

/** Usage Record covers at most this many days at once, `from` and `to` both counted. */
export const USAGE_RECORD_MAX_DAYS = 90;
/** Without `from`/`to`: the last 7 days, today (UTC) included. */
export const USAGE_RECORD_DEFAULT_DAYS = 7;

/**
 * Filters of `GET /record/usage` and its CSV export: UTC dates, both inclusive. Defaults and the
 * order/span rules depend on today, so the server applies them (a 400 VALIDATION_FAILED when broken).
 */
export const usageRecordFilters = z.object({
  granularity: z.enum(['day', 'hour']).default('day'),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
  accountId: entityId.optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'validation.country' })
    .optional(),
});
export type UsageRecordFilters = z.infer<typeof usageRecordFilters>;

export const usageRecordQuery = pageQuery.extend(usageRecordFilters.shape);
export type UsageRecordQuery = z.infer<typeof usageRecordQuery>;

/** Bytes of one proxy account in one country in one bucket (an ISO hour, or a UTC date `YYYY-MM-DD`). */
export const usageRecordDto = z.object({
  bucket: z.string(),
  accountId: z.number().int(),
  /** Null only if the account row is gone; a deleted account keeps its name (and `accountDeleted`). */
  username: z.string().nullable(),
  accountDeleted: z.boolean(),
  /** The static IP whose own login carried these bytes; null for a rotating account (static traffic draws no balance). */
  staticIp: z.string().nullable(),
  /** Null when the exit had no country. */
  country: z.string().nullable(),
  bytesUp: z.number().int(),
  bytesDown: z.number().int(),
});
export type UsageRecordDto = z.infer<typeof usageRecordDto>;

export const usageRecordPage = pageOf(usageRecordDto).extend({
  /** Of every matching row, not only this page. */
  totals: z.object({ bytesUp: z.number().int(), bytesDown: z.number().int() }),
});
export type UsageRecordPage = z.infer<typeof usageRecordPage>;
