import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Article, ArticleCatalogue } from '@/lib/article-catalogue';
import { ArticleList, ArticleListPlaceholder } from './article-list';
import { ArticleNotFound } from './article-not-found';
import { ArticleView } from './article-view';
import { QueryState } from '../query-state';
import { ExternalLinkCard } from './external-link-card';
import { useArticles } from './use-articles';

interface Props {
  /** Names the catalogue in the query cache. */
  name: string;
  catalogue: ArticleCatalogue;
  /** Blog posts show their date. */
  dated?: boolean;
  /** Turns an article's Markdown into what is shown (the toolbox fills in the gateway's address). */
  render?: (article: Article) => string;
  external: { url: string | null; description: string };
}

/**
 * A section of articles: the list, or the one `?article=<slug>` names (so it deep-links and the
 * browser's back and forward move between list and article), or a "not found" state for a slug that
 * is not in the catalogue.
 */
export function ArticleLibrary({ name, catalogue, dated = false, render = (a) => a.body, external }: Props) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const slug = params.get('article');
  const articles = useArticles(name, catalogue);

  let main;
  if (slug !== null && !catalogue.has(slug)) main = <ArticleNotFound slug={slug} />;
  else if (articles.data && !articles.isError) {
    const article = slug === null ? undefined : articles.data.find((a) => a.slug === slug);
    main = article ? <ArticleView article={article} body={render(article)} showDate={dated} /> : <ArticleList articles={articles.data} showDates={dated} />;
  } else {
    // Loading or failed: the shared states, in a card like the list's.
    main = (
      <Card variant="borderless" className="surface-card">
        <QueryState query={articles} rows={6} placeholder={slug === null ? <ArticleListPlaceholder count={catalogue.slugs.length} /> : undefined} errorTitle={t('articles.failed')}>
          {() => null}
        </QueryState>
      </Card>
    );
  }

  return (
    <div className="article-library">
      {main}
      <ExternalLinkCard url={external.url} description={external.description} />
    </div>
  );
}
