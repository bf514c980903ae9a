import { RightOutlined } from '@ant-design/icons';
import { Card, Skeleton } from 'antd';
import { Link } from 'react-router';
import type { ArticleMeta } from '@/lib/article-catalogue';

/** The section's articles; each opens with `?article=<slug>`, a real link that back and forward follow. */
export function ArticleList({ articles, showDates }: { articles: readonly ArticleMeta[]; showDates: boolean }) {
  return (
    <Card variant="borderless" className="surface-card">
      <ul className="article-list" data-testid="article-list">
        {articles.map((a) => (
          <li key={a.slug}>
            <Link to={{ search: `?article=${encodeURIComponent(a.slug)}` }} className="article-list__item" data-testid={`article-link-${a.slug}`}>
              <div className="article-list__text">
                <div className="article-list__title">{a.title}</div>
                {showDates && a.date ? <div className="article-list__date">{a.date}</div> : null}
                {a.summary ? <div className="article-list__summary">{a.summary}</div> : null}
              </div>
              <RightOutlined className="article-list__arrow" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * The list's rows while the articles load: one per article, a title and a line, so the cards below it stay
 * where they will be (a six-line skeleton was half the list's height and pushed them down on a phone).
 */
export function ArticleListPlaceholder({ count }: { count: number }) {
  return (
    <ul className="article-list">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="article-list__item">
          <Skeleton active title={{ width: '45%' }} paragraph={{ rows: 1 }} />
        </li>
      ))}
    </ul>
  );
}
