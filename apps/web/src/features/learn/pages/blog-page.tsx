import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { ArticleLibrary } from '@/components/articles/article-library';
import { blog } from '../articles';

/** /learn/blog: dated posts, newest first. */
export default function BlogPage() {
  const { t } = useTranslation();
  const site = useSite();
  return <ArticleLibrary name="blog" catalogue={blog} dated external={{ url: site.links.blog, description: t('learn.external.blog') }} />;
}
