import { ERROR_CODES } from '@resi/contract';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const catalogues = Object.fromEntries(files.map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(dir, f), 'utf8'))]));

/** Dotted key → text, for every leaf. */
function flatten(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) for (const [kk, vv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  } else {
    out.set(prefix, node);
  }
  return out;
}
const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, c]) => [lang, flatten(c)]));
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('server message catalogues', () => {
  it('are en, zh-cn and zh', () => {
    expect(files).toEqual(['en.json', 'zh-cn.json', 'zh.json']);
  });

  it.each(['zh-cn', 'zh'])('%s has exactly the keys of en', (lang) => {
    expect([...flat[lang]!.keys()].sort()).toEqual([...flat.en!.keys()].sort());
  });

  it.each(Object.keys(flat))('%s has a non-empty string for every key', (lang) => {
    const bad = [...flat[lang]!].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(bad).toEqual([]);
  });

  it.each(['zh-cn', 'zh'])('%s uses the same {{placeholders}} as en in every text', (lang) => {
    const differ = [...flat.en!]
      .filter(([k, v]) => JSON.stringify(placeholders(String(v))) !== JSON.stringify(placeholders(String(flat[lang]!.get(k) ?? ''))))
      .map(([k]) => k);
    expect(differ).toEqual([]);
  });

  it.each(Object.keys(flat))('%s has errors.<CODE> for every error code of the contract', (lang) => {
    const missing = ERROR_CODES.filter((code) => typeof flat[lang]!.get(`errors.${code}`) !== 'string');
    expect(missing).toEqual([]);
  });

  it('Chinese catalogues are translated, not copies of English', () => {
    for (const lang of ['zh-cn', 'zh']) {
      const same = [...flat.en!].filter(([k, v]) => flat[lang]!.get(k) === v && /[a-z]{3}/i.test(String(v).replace(/\{\{\w+\}\}/g, ''))).map(([k]) => k);
      expect(same, lang).toEqual([]);
    }
    expect(flat['zh-cn']!.get('errors.LOGIN_FAILED')).not.toBe(flat.zh!.get('errors.LOGIN_FAILED'));
  });
});
