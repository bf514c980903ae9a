import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** `?article=` names no article here (renamed, removed or mistyped link). */
export function ArticleNotFound({ slug }: { slug: string }) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="surface-card" data-testid="article-not-found">
      <Result
        icon={<FileSearchOutlined style={{ color: 'var(--brand-color)' }} />}
        title={t('articles.notFound.title')}
        subTitle={t('articles.notFound.description', { slug })}
        extra={
          <Link to={{ search: '' }}>
            <Button type="primary" data-testid="article-not-found-back">
              {t('articles.notFound.back')}
            </Button>
          </Link>
        }
      />
    </Card>
  );
}
