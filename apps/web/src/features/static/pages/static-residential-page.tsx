import { NotAvailable } from '@/components/not-available';

/** Filled by a later issue; until then it says so rather than showing invented data. */
export default function StaticResidentialPage() {
  return <NotAvailable feature="features.staticResidential" />;
}
