import frontMatter from 'front-matter';

/** One Markdown article with its front matter read: what a `*.md?article` import gives the console. */
export interface ArticleSource {
  attributes: Record<string, unknown>;
  body: string;
}

/**
 * Reads an article's front matter. Runs at build time (article-plugin.ts turns each file into this,
 * as JSON) and in tests, never in the browser: the YAML parser it needs would be a fifth of the
 * article chunk. YAML reads an unquoted `2026-01-15` as a Date at UTC midnight; it becomes the same
 * `YYYY-MM-DD` text a quoted one is, so the result survives JSON.
 */
export function articleSource(raw: string): ArticleSource {
  const { attributes, body } = frontMatter<Record<string, unknown>>(raw);
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    plain[key] = value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value;
  }
  return { attributes: plain, body };
}
