import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { articleSource } from './src/lib/article-source.js';

const QUERY = '?article';

/**
 * `import.meta.glob('…/*.md', { query: '?article' })` gives each article as `{ attributes, body }`,
 * its front matter read here at build time, so the console ships no YAML parser.
 */
export function articlePlugin(): Plugin {
  return {
    name: 'resi-articles',
    enforce: 'pre',
    async load(id) {
      if (!id.endsWith(QUERY)) return null;
      const file = id.slice(0, -QUERY.length);
      return `export default ${JSON.stringify(articleSource(await readFile(file, 'utf8')))};`;
    },
  };
}
