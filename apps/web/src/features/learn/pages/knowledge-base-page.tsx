import { useTranslation } from 'react-i18next';
import { useProxyEndpoint } from '@/api/get-proxy-endpoint';
import { useSite } from '@/api/get-site';
import { ArticleLibrary } from '@/components/articles/article-library';
import { fillPlaceholders } from '@/lib/fill-placeholders';
import { knowledgeBase } from '../articles';

/** /learn/knowledge: how-to articles; commands in them carry this gateway's host and ports. */
export default function KnowledgeBasePage() {
  const { t } = useTranslation();
  const site = useSite();
  const endpoint = useProxyEndpoint();
  return (
    <ArticleLibrary
      name="knowledge"
      catalogue={knowledgeBase}
      render={(article) => fillPlaceholders(article.body, endpoint.data)}
      external={{ url: site.links.knowledgeBase, description: t('learn.external.knowledgeBase') }}
    />
  );
}
