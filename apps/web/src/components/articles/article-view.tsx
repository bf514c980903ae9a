import { ArrowLeftOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Alert, Card, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Article } from '@/lib/article-catalogue';
import { MarkdownView } from './markdown-view';

/** One article; `body` is the Markdown to show (the article's, or with placeholders filled in). */
export function ArticleView({ article, body, showDate }: { article: Article; body: string; showDate: boolean }) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  // Opened from far down the list: start reading at the top.
  // A block body: newer browsers return a Promise from scrollIntoView, and an effect may return only a cleanup function.
  useEffect(() => {
    void ref.current?.scrollIntoView?.({ block: 'start' });
  }, [article.slug]);
  const fallback = article.lang !== normalizeLang(i18n.language);
  return (
    <div ref={ref}>
      <Card variant="borderless" className="surface-card article-view" data-testid="article-view">
        <Link to={{ search: '' }} className="article-view__back" data-testid="article-back">
          <ArrowLeftOutlined /> {t('articles.back')}
        </Link>
        <Typography.Title level={2} className="article-view__title" data-testid="article-title">
          {article.title}
        </Typography.Title>
        {showDate && article.date ? <div className="article-view__date">{t('articles.published', { date: article.date })}</div> : null}
        {fallback ? <Alert type="info" showIcon className="article-view__fallback" title={t('articles.fallback')} /> : null}
        <MarkdownView source={body} />
      </Card>
    </div>
  );
}
