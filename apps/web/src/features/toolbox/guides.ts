import { articleCatalogue } from '@/lib/article-catalogue';
import type { ArticleSource } from '@/lib/article-source';

/** Integration guides; `{{host}}`, `{{httpPort}}`, `{{socksPort}}` and `{{checkUrl}}` are filled in on the page. */
export const guides = articleCatalogue(import.meta.glob<ArticleSource>('./content/*.md', { query: '?article', import: 'default' }));
