import { NotAvailable } from '@/components/not-available';

/** Placeholder while this page is being built in this session. */
export default function KnowledgeBasePage() {
  return <NotAvailable feature="features.learn" />;
}
