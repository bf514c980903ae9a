import { z } from 'zod';

/** Success envelope (docs/api.md#requests-and-responses): `{ data, message? }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string().optional() });

/** A success body as a client reads it; login and register also carry `token` beside `data` (authResponse). */
export interface Envelope<T> {
  data: T;
  message?: string;
  token?: string;
}

const pageError = { error: 'validation.page' };
const pageSizeError = { error: 'validation.pageSize' };
/** Messages are i18n keys (`validation.*`), so a bad page answers in the caller's language. */
export const pageQuery = z.object({
  page: z.coerce.number(pageError).int(pageError).min(1, pageError).default(1),
  pageSize: z.coerce.number(pageSizeError).int(pageSizeError).min(1, pageSizeError).max(100, pageSizeError).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

/** One page of a list (docs/api.md#lists-and-paging): what `pageOf(item)` describes, for any item type. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const errorBody = z.object({ code: z.string(), message: z.string() });

/** The body of a POST/DELETE that takes no input: none (Fastify says null), or `{}`; an unknown field is a 400. */
export const emptyBody = z.strictObject({}).nullish();
