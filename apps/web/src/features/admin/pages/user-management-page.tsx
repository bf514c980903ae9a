import { NotAvailable } from '@/components/not-available';

/** Filled by a later issue; until then it says so rather than showing invented data. */
export default function UserManagementPage() {
  return <NotAvailable feature="features.manageUser" />;
}
