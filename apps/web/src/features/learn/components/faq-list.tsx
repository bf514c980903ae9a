import { Card, Collapse, Skeleton } from 'antd';
import { useSearchParams } from 'react-router';
import { ArticleNotFound } from '@/components/articles/article-not-found';
import { ArticlesFailed } from '@/components/articles/articles-failed';
import { MarkdownView } from '@/components/articles/markdown-view';
import { useArticles } from '@/components/articles/use-articles';
import { faq } from '../articles';

/**
 * Every question, one open at a time. The open one is `?article=<slug>`, so a question can be linked to
 * and back/forward step through what was opened.
 */
export function FaqList() {
  const [params, setParams] = useSearchParams();
  const slug = params.get('article');
  const articles = useArticles('faq', faq);

  if (slug !== null && !faq.has(slug)) return <ArticleNotFound slug={slug} />;
  if (articles.isError) return <ArticlesFailed onRetry={() => void articles.refetch()} />;
  return (
    <Card variant="borderless" className="surface-card">
      {!articles.data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Collapse
          accordion
          ghost
          className="faq-list"
          activeKey={slug ? [slug] : []}
          onChange={(key) => {
            const open = Array.isArray(key) ? key[0] : key;
            setParams(open ? { article: open } : {});
          }}
          items={articles.data.map((a) => ({
            key: a.slug,
            label: <span data-testid={`faq-question-${a.slug}`}>{a.title}</span>,
            children: <MarkdownView source={a.body} />,
          }))}
          data-testid="faq-list"
        />
      )}
    </Card>
  );
}
