import { articleCatalogue } from '@/lib/article-catalogue';
import type { ArticleSource } from '@/lib/article-source';

// Lazy globs: each article is its own chunk, fetched when its section opens (see article-catalogue.ts).
export const knowledgeBase = articleCatalogue(import.meta.glob<ArticleSource>('./content/knowledge/*.md', { query: '?article', import: 'default' }));
export const faq = articleCatalogue(import.meta.glob<ArticleSource>('./content/faq/*.md', { query: '?article', import: 'default' }));
export const blog = articleCatalogue(import.meta.glob<ArticleSource>('./content/blog/*.md', { query: '?article', import: 'default' }));
