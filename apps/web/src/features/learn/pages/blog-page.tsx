import { NotAvailable } from '@/components/not-available';

/** Placeholder while this page is being built in this session. */
export default function BlogPage() {
  return <NotAvailable feature="features.learn" />;
}
