import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, userDto } from '@resi/contract';
import { findTransform, serializerCompiler } from './response-serializer';

const compile = (schema: z.ZodType) => serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as (data: unknown) => string;

describe('the response serializer', () => {
  it('drops what the schema does not name and keeps the rest', () => {
    const user = { id: 1, email: 'a@example.com', account: null, role: 'customer', isDistributor: false, status: 'active', inviteCode: 'ABCDEFGH', lang: 'en', createdAt: '2026-01-01T00:00:00.000Z', lastLoginAt: null };
    const out = JSON.parse(compile(envelope(userDto))({ data: { ...user, password_hash: 'scrypt$…' }, extra: 1 }));
    expect(out).toEqual({ data: user });
  });

  it('refuses an answer that does not match its schema', () => {
    expect(() => compile(z.object({ n: z.number() }))({ n: 'one' })).toThrow(/Response doesn't match the schema|serializ/i);
  });

  it('refuses, at compile time, a schema that would change the answer when parsed', () => {
    expect(findTransform(z.object({ a: z.array(z.object({ b: z.string().transform((s) => s.length) })) }))).toBe('transform');
    expect(findTransform(z.object({ u: z.union([z.number(), z.codec(z.string(), z.number(), { decode: Number, encode: String })]) }))).toBe('codec');
    expect(findTransform(envelope(userDto))).toBeUndefined();
    expect(() => compile(z.object({ n: z.string().transform(Number) }))).toThrow(/must not transform/);
  });
});
