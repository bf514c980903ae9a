import { useTranslation } from 'react-i18next';
import { useProxyEndpoint } from '@/api/get-proxy-endpoint';
import { useSite } from '@/api/get-site';
import { ArticleLibrary } from '@/components/articles/article-library';
import { QueryError } from '@/components/query-state';
import { fillPlaceholders } from '@/lib/fill-placeholders';
import { knowledgeBase } from '../articles';

/** /learn/knowledge: how-to articles; commands in them carry this gateway's host and ports. */
export default function KnowledgeBasePage() {
  const { t } = useTranslation();
  const site = useSite();
  const endpoint = useProxyEndpoint();
  // Read here, not only inside `render`: the query re-renders this page for the properties read while rendering.
  const gateway = endpoint.data;
  return (
    <>
      {/* The articles still read well with placeholder names; the reader is told why they see them. */}
      {endpoint.isError ? <QueryError query={endpoint} title={t('learn.endpointFailed')} /> : null}
      <ArticleLibrary
        name="knowledge"
        catalogue={knowledgeBase}
        render={(article) => fillPlaceholders(article.body, gateway)}
        external={{ url: site.links.knowledgeBase, description: t('learn.external.knowledgeBase') }}
      />
    </>
  );
}
