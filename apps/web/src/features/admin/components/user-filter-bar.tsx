import type { UserFilter } from '@resi/contract';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FilterButtons } from '@/components/filter-buttons';
import { dateRangeQuery } from '@/lib/format';
import { optionalText } from '@/lib/form-rules';

interface FilterValues {
  email?: string;
  account?: string;
  role?: UserFilter['role'];
  status?: UserFilter['status'];
  distributor?: UserFilter['distributor'];
  referrerId?: number | null;
  channelKey?: string;
  channelValue?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The filter form as the list's filters (empty text left out). */
export function userFilters(values: FilterValues): Partial<UserFilter> {
  return {
    email: optionalText(values.email),
    account: optionalText(values.account),
    role: values.role,
    status: values.status,
    distributor: values.distributor,
    referrerId: values.referrerId ?? undefined,
    channelKey: optionalText(values.channelKey),
    channelValue: optionalText(values.channelValue),
    ...dateRangeQuery(values.range),
  };
}

/** The user list's filters: applied on Search, cleared by Reset. */
export function UserFilterBar({ onApply }: { onApply: (filters: Partial<UserFilter>) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  return (
    <Form<FilterValues> name="user-filter" form={form} layout="inline" onFinish={(v) => onApply(userFilters(v))} className="filter-form">
      <Form.Item name="email">
        <Input allowClear placeholder={t('users.filters.email')} className="filter-input" data-testid="user-filter-email" />
      </Form.Item>
      <Form.Item name="account">
        <Input allowClear placeholder={t('users.filters.account')} className="filter-input" />
      </Form.Item>
      <Form.Item name="role">
        <Select allowClear placeholder={t('users.filters.role')} className="filter-select" options={(['customer', 'admin'] as const).map((r) => ({ value: r, label: t(`users.role.${r}`) }))} />
      </Form.Item>
      <Form.Item name="status">
        <Select
          allowClear
          placeholder={t('users.filters.status')}
          className="filter-select"
          options={(['active', 'disabled'] as const).map((s) => ({ value: s, label: t(`users.status.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="distributor">
        <Select
          allowClear
          placeholder={t('users.filters.distributor')}
          className="filter-select"
          options={[
            { value: 'true', label: t('users.filters.distributorYes') },
            { value: 'false', label: t('users.filters.distributorNo') },
          ]}
        />
      </Form.Item>
      <Form.Item name="referrerId">
        <InputNumber min={1} precision={0} placeholder={t('users.filters.referrerId')} className="filter-input" />
      </Form.Item>
      <Form.Item name="channelKey">
        <Input allowClear placeholder={t('users.filters.channelKey')} className="filter-input" />
      </Form.Item>
      <Form.Item name="channelValue">
        <Input allowClear placeholder={t('users.filters.channelValue')} className="filter-input" />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker allowEmpty={[true, true]} placeholder={[t('users.filters.from'), t('users.filters.to')]} />
      </Form.Item>
      <FilterButtons
        searchTestId="users-search"
        onReset={() => {
          form.resetFields();
          onApply({});
        }}
      />
    </Form>
  );
}
