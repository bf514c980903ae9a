import { articleCatalogue } from '@/lib/article-catalogue';

// Lazy globs: each article is its own chunk, fetched when its section opens (see article-catalogue.ts).
export const knowledgeBase = articleCatalogue(import.meta.glob<string>('./content/knowledge/*.md', { query: '?raw', import: 'default' }));
export const faq = articleCatalogue(import.meta.glob<string>('./content/faq/*.md', { query: '?raw', import: 'default' }));
export const blog = articleCatalogue(import.meta.glob<string>('./content/blog/*.md', { query: '?raw', import: 'default' }));
