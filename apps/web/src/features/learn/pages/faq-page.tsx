import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { ExternalLinkCard } from '@/components/articles/external-link-card';
import { FaqList } from '../components/faq-list';

/** /learn/faq: questions as a collapse; `?article=<slug>` opens one. */
export default function FaqPage() {
  const { t } = useTranslation();
  const site = useSite();
  return (
    <div className="article-library">
      <FaqList />
      <ExternalLinkCard url={site.links.faq} description={t('learn.external.faq')} />
    </div>
  );
}
