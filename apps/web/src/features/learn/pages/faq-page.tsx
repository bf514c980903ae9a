import { NotAvailable } from '@/components/not-available';

/** Placeholder while this page is being built in this session. */
export default function FaqPage() {
  return <NotAvailable feature="features.learn" />;
}
