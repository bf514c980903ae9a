import { z } from 'zod';

/**
 * A row id as the API takes it, in a path, a query or a body: a positive safe integer, as a JSON number
 * or written in plain decimal digits. `z.coerce.number()` used `Number()`, which also reads `0x10`, ` 1`,
 * `+1` and `1e3` as ids, so a mistyped or crafted path could name (and delete) another row.
 */
export const entityId = z.union([
  z.int().positive(),
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .transform(Number)
    .pipe(z.int()),
]);
