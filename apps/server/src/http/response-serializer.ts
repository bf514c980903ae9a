import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

/**
 * fastify-type-provider-zod's serializer, with zod's `safeParse` where it calls `safeEncode`. Encoding
 * runs codecs backwards and zod does not compile it: for a signed-in `GET /api/user` it was 17 times the
 * cost of a parse and the largest part of answering (docs/architecture.md#a-signed-in-requests-own-cost).
 * A parse checks and strips exactly as the encode did (a field not in the schema never leaves the
 * server) as long as the schema transforms nothing, so a response schema that does is refused when its
 * route is compiled, at start-up.
 */
export const serializerCompiler: FastifySerializerCompiler<$ZodType> = ({ schema, method, url }) => {
  const transform = findTransform(schema);
  if (transform) throw new Error(`${method} ${url}: a response schema must not transform (${transform}); it is checked with a parse`);
  return (data) => {
    const result = safeParse(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/** The first transform or codec inside a schema, by its kind; undefined when it has none. */
export function findTransform(schema: $ZodType, seen = new Set<$ZodType>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'transform') return 'transform';
  if (def.type === 'pipe' && 'reverseTransform' in def) return 'codec';
  for (const value of Object.values(def)) {
    const children = value instanceof $ZodType ? [value] : Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
    for (const child of children) {
      const found = child instanceof $ZodType ? findTransform(child, seen) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}
