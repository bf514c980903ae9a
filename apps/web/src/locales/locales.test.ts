import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGS } from '@resi/contract';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const contractSrc = path.resolve(here, '../../../../packages/contract/src');
const srcRoot = path.resolve(here, '..');

type Tree = { [key: string]: string | Tree };

function load(lang: string): Record<string, Tree> {
  const dir = path.join(here, lang);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Tree]),
  );
}

/** `{ a: { b: 'x' } }` under namespace `ns` → `{ 'ns.a.b': 'x' }`. */
function flatten(tree: Tree, prefix: string, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(tree)) {
    const full = `${prefix}.${key}`;
    if (value && typeof value === 'object' && !Array.isArray(value)) flatten(value, full, out);
    else out[full] = value;
  }
  return out;
}

const flat = Object.fromEntries(
  LANGS.map((lang) => {
    const out: Record<string, unknown> = {};
    for (const [ns, tree] of Object.entries(load(lang))) flatten(tree, ns, out);
    return [lang, out];
  }),
) as Record<string, Record<string, unknown>>;

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('locales', () => {
  it('has the same namespaces (files) for every language', () => {
    const names = LANGS.map((lang) => Object.keys(load(lang)).sort());
    expect(names[0]?.length).toBeGreaterThan(0);
    for (const list of names) expect(list).toEqual(names[0]);
  });

  it.each(LANGS.filter((l) => l !== 'en'))('%s has exactly the keys of en', (lang) => {
    const en = Object.keys(flat.en ?? {}).sort();
    expect(Object.keys(flat[lang] ?? {}).sort()).toEqual(en);
  });

  it.each(LANGS)('%s has a non-empty string for every key', (lang) => {
    const empty = Object.entries(flat[lang] ?? {}).filter(([, v]) => typeof v !== 'string' || v.trim() === '');
    expect(empty.map(([k]) => k)).toEqual([]);
  });

  it.each(LANGS.filter((l) => l !== 'en'))('%s uses the same {{placeholders}} and <tags> as en', (lang) => {
    for (const [key, enValue] of Object.entries(flat.en ?? {})) {
      const value = String(flat[lang]?.[key] ?? '');
      expect({ key, p: placeholders(value), t: tags(value) }).toEqual({ key, p: placeholders(String(enValue)), t: tags(String(enValue)) });
    }
  });

  it('Traditional Chinese names a user 使用者 throughout, never 用戶 (用戶端, a client program, is another word)', () => {
    const mixed = Object.entries(flat.zh ?? {}).filter(([, v]) => /用戶(?!端)/.test(String(v)));
    expect(mixed.map(([k]) => k)).toEqual([]);
  });

  it('contains every validation.* key the contract uses', () => {
    const keys = new Set<string>();
    for (const file of readdirSync(contractSrc).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(path.join(contractSrc, file), 'utf8').matchAll(/['"](validation\.[A-Za-z]+)['"]/g)) keys.add(m[1] as string);
    }
    expect(keys.size).toBeGreaterThan(5);
    for (const lang of LANGS) for (const key of keys) expect(flat[lang], `${lang} ${key}`).toHaveProperty([key]);
  });

  it('contains every literal key the source passes to t() / i18nKey', () => {
    const used = new Set<string>();
    for (const file of walk(srcRoot)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)'/g)) used.add(m[1] as string);
      for (const m of text.matchAll(/i18nKey="([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)"/g)) used.add(m[1] as string);
      for (const m of text.matchAll(/(?:title|label|feature): '([a-zA-Z]+\.[a-zA-Z0-9.]+)'/g)) used.add(m[1] as string);
      for (const m of text.matchAll(/feature="([a-zA-Z]+\.[a-zA-Z0-9.]+)"/g)) used.add(m[1] as string);
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((key) => !(key in (flat.en ?? {})));
    expect(missing).toEqual([]);
  });

  it('writes Traditional Chinese in zh, not Simplified', () => {
    // Characters that differ between the scripts and occur in these texts.
    const simplifiedOnly = /[户这码录设连页图发于请时间务费网载选换复择验证关认为们账]/;
    const offenders = Object.entries(flat.zh ?? {}).filter(([, v]) => simplifiedOnly.test(String(v)));
    expect(offenders).toEqual([]);
    expect(String(flat.zh?.['routes.login'])).toBe('登入');
    expect(String(flat['zh-cn']?.['routes.login'])).toBe('登录');
  });
});
