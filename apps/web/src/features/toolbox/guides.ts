import { articleCatalogue } from '@/lib/article-catalogue';

/** Integration guides; `{{host}}`, `{{httpPort}}`, `{{socksPort}}` and `{{checkUrl}}` are filled in on the page. */
export const guides = articleCatalogue(import.meta.glob<string>('./content/*.md', { query: '?raw', import: 'default' }));
