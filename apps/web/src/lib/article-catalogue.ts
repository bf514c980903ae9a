import { DEFAULT_LANG, LANGS, type Lang } from '@resi/contract';
import type { ArticleSource } from './article-source';

/*
 * Articles are Markdown files in the repo, `<slug>.<lang>.md`, with a little front matter (title, summary,
 * order, date). A feature globs its own folder lazily (`import.meta.glob(…, { query: '?article', import:
 * 'default' })`), so each file is its own chunk, fetched only when its section is opened; the front
 * matter is read at build time (article-plugin.ts).
 */

export interface ArticleMeta {
  slug: string;
  title: string;
  summary: string;
  /** Publication day, `YYYY-MM-DD` (blog posts). */
  date: string | null;
  /** Position in the list; articles without one follow, newest first. */
  order: number | null;
  /** The language of the text: the one asked for, or English when that translation is missing. */
  lang: Lang;
}

export interface Article extends ArticleMeta {
  body: string;
}

export interface ArticleCatalogue {
  /** Every slug, in no particular order. */
  slugs: readonly string[];
  has(slug: string): boolean;
  /** All articles of the catalogue in `lang`, in list order. */
  loadAll(lang: Lang): Promise<Article[]>;
}

type Loader = () => Promise<ArticleSource>;

const FILE_NAME = new RegExp(`/([a-z0-9-]+)\\.(${LANGS.join('|')})\\.md$`);

/** `…/getting-started.zh-cn.md` → `{ slug: 'getting-started', lang: 'zh-cn' }`; null for any other name. */
export function articleFile(path: string): { slug: string; lang: Lang } | null {
  const m = FILE_NAME.exec(path);
  return m ? { slug: m[1]!, lang: m[2] as Lang } : null;
}

/** One file's article; throws when it has no title, so a broken file is never shown half-made. */
export function parseArticle({ attributes, body }: ArticleSource, slug: string, lang: Lang): Article {
  const title = typeof attributes.title === 'string' ? attributes.title.trim() : '';
  if (!title) throw new Error(`Article ${slug}.${lang}.md has no title`);
  return {
    slug,
    lang,
    title,
    summary: typeof attributes.summary === 'string' ? attributes.summary.trim() : '',
    date: day(attributes.date),
    order: typeof attributes.order === 'number' ? attributes.order : null,
    body,
  };
}

/** `YYYY-MM-DD` (article-source.ts has made a YAML date into that text already). */
function day(value: unknown): string | null {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return null;
}

function listOrder(a: ArticleMeta, b: ArticleMeta): number {
  if (a.order !== b.order) return (a.order ?? Infinity) - (b.order ?? Infinity);
  if (a.date !== b.date) return (b.date ?? '').localeCompare(a.date ?? '');
  return a.slug.localeCompare(b.slug);
}

/** A catalogue over the files one glob found; names that are not `<slug>.<lang>.md` are ignored. */
export function articleCatalogue(files: Record<string, Loader>): ArticleCatalogue {
  const bySlug = new Map<string, Partial<Record<Lang, Loader>>>();
  for (const [path, load] of Object.entries(files)) {
    const file = articleFile(path);
    if (!file) continue;
    const langs = bySlug.get(file.slug) ?? {};
    langs[file.lang] = load;
    bySlug.set(file.slug, langs);
  }

  const load = async (slug: string, lang: Lang): Promise<Article> => {
    const langs = bySlug.get(slug) ?? {};
    const shown = langs[lang] ? lang : DEFAULT_LANG;
    const loader = langs[shown];
    if (!loader) throw new Error(`Article ${slug} has neither ${lang} nor ${DEFAULT_LANG}`);
    return parseArticle(await loader(), slug, shown);
  };

  return {
    slugs: [...bySlug.keys()],
    has: (slug) => bySlug.has(slug),
    loadAll: async (lang) => (await Promise.all([...bySlug.keys()].map((slug) => load(slug, lang)))).sort(listOrder),
  };
}
