import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replaceAll(' ', '-');
    const n = seen.get(slug);
    seen.set(slug, (n ?? -1) + 1);
    anchors.add(n === undefined ? slug : `${slug}-${n + 1}`);
  }
  return anchors;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', 'artifacts', 'test-results'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/*
 * The code explains itself by citing docs/ (the product contract written into this repository): every
 * `docs/<file>.md#<anchor>` in the sources and every relative link between the docs must lead somewhere,
 * so a renamed heading cannot leave comments pointing at nothing.
 */
describe('citations of docs/', () => {
  const docs = new Map(readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => [`docs/${f}`, anchorsOf(readFileSync(path.join(DOCS, f), 'utf8'))]));

  it('every docs/ file and anchor the code cites exists', () => {
    const broken: string[] = [];
    for (const file of [...sourceFiles(path.join(ROOT, 'apps')), ...sourceFiles(path.join(ROOT, 'packages')), ...sourceFiles(path.join(ROOT, 'bench')), ...sourceFiles(path.join(ROOT, 'scripts'))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/docs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
            const anchors = docs.get(`docs/${m[1]}`);
            if (!anchors || (m[2] && !anchors.has(m[2]))) broken.push(`${path.relative(ROOT, file)}:${i + 1} ${m[0]}`);
          }
        });
    }
    expect(broken).toEqual([]);
  });

  it('every relative link between the docs and from the README leads to a file and heading that exist', () => {
    const broken: string[] = [];
    for (const file of [...[...docs.keys()].map((d) => path.join(ROOT, d)), path.join(ROOT, 'README.md')]) {
      const from = path.dirname(path.relative(ROOT, file));
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
            const target = m[1]!;
            if (/^[a-z]+:/i.test(target) || target.startsWith('<')) continue;
            const [p, anchor] = target.split('#') as [string, string | undefined];
            const rel = p ? path.normalize(path.join(from, p)) : path.relative(ROOT, file);
            const anchors = docs.get(rel.replaceAll(path.sep, '/'));
            if (rel.endsWith('.md') && !anchors && rel !== 'README.md') broken.push(`${path.relative(ROOT, file)}:${i + 1} ${target}`);
            else if (anchor && anchors && !anchors.has(anchor)) broken.push(`${path.relative(ROOT, file)}:${i + 1} ${target}`);
          }
        });
    }
    expect(broken).toEqual([]);
  });
});
