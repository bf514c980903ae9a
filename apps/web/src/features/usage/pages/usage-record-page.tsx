import { NotAvailable } from '@/components/not-available';

/** Placeholder while this page is being built in this session. */
export default function UsageRecordPage() {
  return <NotAvailable feature="features.usageRecord" />;
}
