import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProxyEndpoint } from '@/api/get-proxy-endpoint';
import { useSite } from '@/api/get-site';
import { ArticleLibrary } from '@/components/articles/article-library';
import { QueryState } from '@/components/query-state';
import { fillPlaceholders } from '@/lib/fill-placeholders';
import { LineConverterCard } from '../components/line-converter-card';
import { guides } from '../guides';

/** /toolbox: integration guides with this gateway's address filled in, and the proxy line converter. */
export default function ToolboxPage() {
  const { t } = useTranslation();
  const site = useSite();
  const endpoint = useProxyEndpoint();
  return (
    <Row gutter={[20, 20]}>
      <Col xs={24} xl={14}>
        <ArticleLibrary
          name="toolbox"
          catalogue={guides}
          render={(article) => fillPlaceholders(article.body, endpoint.data)}
          external={{ url: site.links.toolbox, description: t('toolbox.external') }}
        />
      </Col>
      <Col xs={24} xl={10}>
        {endpoint.data && !endpoint.isError ? (
          <LineConverterCard endpoint={endpoint.data} />
        ) : (
          <Card variant="borderless" className="surface-card">
            <QueryState query={endpoint} rows={6} errorTitle={t('toolbox.endpointFailed')}>
              {() => null}
            </QueryState>
          </Card>
        )}
      </Col>
    </Row>
  );
}
