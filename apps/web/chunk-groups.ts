import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rolldown } from 'vite';

/*
 * Chunk groups by reachability (docs/console.md#first-load): what a root module reaches through static imports
 * is loaded whenever that root is, so it may as well come as one file. A phone's browser fetches six files at a
 * time from one host over HTTP/1.1, and a console page's first load was sixty, most of a few hundred bytes.
 * rolldown's groups take a module by its id or its size, not by what imports it, hence this walk.
 */

const SRC = fileURLToPath(new URL('./src/', import.meta.url));
const ANTD = join(dirname(createRequire(import.meta.url).resolve('antd/package.json')), 'es/');
const ANTD_INDEX = `${ANTD}index.js`;

/** `DatePicker` → `date-picker`: the folder of an antd export. */
const folderOf = (name: string) => name.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase());

/**
 * The antd components a source file names (`import { Button, Drawer } from 'antd'`), as their modules. antd's
 * index re-exports every component, so following it would reach all of them, used or not.
 */
function antdImportsOf(file: string): string[] {
  if (!file.startsWith(SRC) || !existsSync(file)) return [];
  const modules: string[] = [];
  for (const [, list] of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
    for (const part of list!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!.trim();
      if (!name || name.startsWith('type ')) continue;
      modules.push(`${ANTD}${folderOf(name)}/index.js`);
    }
  }
  return modules;
}

/** The modules `roots` reach through static imports, antd's index replaced by the components named from it. */
function reach(roots: string[], ctx: Rolldown.ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    for (const imported of ctx.getModuleInfo(next)?.importedIds ?? []) {
      if (imported === ANTD_INDEX) queue.push(...antdImportsOf(next).filter((m) => ctx.getModuleInfo(m)));
      else queue.push(imported);
    }
  }
  return seen;
}

/** The modules `roots` (paths under src/) reach through static imports: walked once per build, when first asked. */
export function graphOf(roots: string[]): (ctx: Rolldown.ChunkingContext) => Set<string> {
  const files = roots.map((root) => `${SRC}${root}`);
  let reached: Set<string> | null = null;
  return (ctx) => (reached ??= reach(files, ctx));
}

export const isConsoleModule = (id: string) => id.startsWith(SRC);
export const srcPath = (path: string) => `${SRC}${path}`;
