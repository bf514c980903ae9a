import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** The article files could not be fetched (a new deployment replaced the chunks, or the network dropped). */
export function ArticlesFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="surface-card" data-testid="articles-failed">
      <Result
        status="warning"
        title={t('articles.failed')}
        extra={
          <Button type="primary" onClick={onRetry}>
            {t('common.reload')}
          </Button>
        }
      />
    </Card>
  );
}
