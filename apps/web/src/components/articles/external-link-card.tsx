import { ExportOutlined, GlobalOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';

/** The operator's own page for this section (KNOWLEDGE_BASE_URL and friends); nothing when none is configured. */
export function ExternalLinkCard({ url, description }: { url: string | null; description: string }) {
  const { t } = useTranslation();
  if (!url) return null;
  return (
    <Card variant="borderless" className="surface-card external-link-card" data-testid="external-link-card">
      <div className="external-link-card__body">
        <GlobalOutlined className="external-link-card__icon" />
        <div className="external-link-card__text">
          <div className="external-link-card__title">{t('articles.external.title')}</div>
          <div className="muted">{description}</div>
        </div>
        <Button type="primary" ghost icon={<ExportOutlined />} href={url} target="_blank" rel="noopener noreferrer" data-testid="external-link">
          {t('articles.external.open')}
        </Button>
      </div>
    </Card>
  );
}
