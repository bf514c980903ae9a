import { Card, Collapse } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ArticleNotFound } from '@/components/articles/article-not-found';
import { MarkdownView } from '@/components/articles/markdown-view';
import { useArticles } from '@/components/articles/use-articles';
import { QueryState } from '@/components/query-state';
import { faq } from '../articles';

/**
 * Every question, one open at a time. The open one is `?article=<slug>`, so a question can be linked to
 * and back/forward step through what was opened.
 */
export function FaqList() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const slug = params.get('article');
  const articles = useArticles('faq', faq);

  if (slug !== null && !faq.has(slug)) return <ArticleNotFound slug={slug} />;
  return (
    <Card variant="borderless" className="surface-card">
      <QueryState query={articles} rows={8} errorTitle={t('articles.failed')}>
        {(list) => (
          <Collapse
            accordion
            ghost
            className="faq-list"
            activeKey={slug ? [slug] : []}
            onChange={(key) => {
              const open = Array.isArray(key) ? key[0] : key;
              setParams(open ? { article: open } : {});
            }}
            items={list.map((a) => ({
              key: a.slug,
              label: <span data-testid={`faq-question-${a.slug}`}>{a.title}</span>,
              children: <MarkdownView source={a.body} />,
            }))}
            data-testid="faq-list"
          />
        )}
      </QueryState>
    </Card>
  );
}
