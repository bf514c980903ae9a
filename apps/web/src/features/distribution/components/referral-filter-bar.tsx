import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterButtons } from '@/components/filter-buttons';
import { UserPicker } from '@/components/user-picker';
import { optionalText } from '@/lib/form-rules';
import type { ReferralFilters } from '../api/get-referrals';

interface FilterValues {
  email?: string;
  status?: ReferralFilters['status'];
  distributorId?: number | null;
}

/** The filter form as the list's filters (empty text left out). */
export function referralFilters(values: FilterValues): ReferralFilters {
  return { email: optionalText(values.email), status: values.status, distributorId: values.distributorId ?? undefined };
}

/** Email and status; admins also pick one distributor. Applied on Search, cleared by Reset. */
export function ReferralFilterBar({ onApply, byDistributor }: { onApply: (filters: ReferralFilters) => void; byDistributor: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  return (
    <Form<FilterValues> name="referral-filter" form={form} layout="inline" onFinish={(v) => onApply(referralFilters(v))} className="filter-form">
      <Form.Item name="email">
        <Input allowClear placeholder={t('distributionUsers.filters.email')} className="filter-input" data-testid="referral-filter-email" />
      </Form.Item>
      <Form.Item name="status">
        <Select
          allowClear
          placeholder={t('distributionUsers.filters.status')}
          className="filter-select"
          options={(['active', 'disabled'] as const).map((s) => ({ value: s, label: t(`distributionUsers.status.${s}`) }))}
          data-testid="referral-filter-status"
        />
      </Form.Item>
      {byDistributor ? (
        <Form.Item name="distributorId" className="filter-picker">
          <UserPicker distributorsOnly allowClear placeholder={t('distributionUsers.filters.distributor')} testId="referral-filter-distributor" />
        </Form.Item>
      ) : null}
      <FilterButtons
        searchTestId="referral-search"
        onReset={() => {
          form.resetFields();
          onApply({});
        }}
      />
    </Form>
  );
}
