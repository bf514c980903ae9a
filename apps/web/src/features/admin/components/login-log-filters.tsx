import { DownloadOutlined } from '@ant-design/icons';
import { LOGIN_RESULTS, type LoginResult } from '@resi/contract';
import { Button, DatePicker, Form, type FormInstance, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FilterButtons } from '@/components/filter-buttons';
import { dateRangeQuery } from '@/lib/format';
import { optionalText } from '@/lib/form-rules';
import type { LoginLogFilters } from '../api/get-login-logs';

export interface LoginFilterValues {
  email?: string;
  ip?: string;
  result?: LoginResult;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The filter form as the list's query (empty text left out; no dates: the server's last 30 days). */
export function loginLogFilters(values: LoginFilterValues): LoginLogFilters {
  return { email: optionalText(values.email), ip: optionalText(values.ip), result: values.result, ...dateRangeQuery(values.range) };
}

/** Email (or account as typed), IP, result and dates; search, reset and export of what they match. */
export function LoginLogFilterBar({ form, onApply, onExport, exporting }: { form: FormInstance<LoginFilterValues>; onApply: (values: LoginFilterValues) => void; onExport: () => void; exporting: boolean }) {
  const { t } = useTranslation();
  return (
    <Form<LoginFilterValues> name="login-filter" form={form} layout="inline" onFinish={onApply} className="filter-form">
      <Form.Item name="email">
        <Input allowClear placeholder={t('logins.filters.email')} className="filter-input" data-testid="filter-email" />
      </Form.Item>
      <Form.Item name="ip">
        <Input allowClear placeholder={t('logins.filters.ip')} className="filter-input" data-testid="filter-ip" />
      </Form.Item>
      <Form.Item name="result">
        <Select<LoginResult>
          allowClear
          placeholder={t('logins.filters.result')}
          options={LOGIN_RESULTS.map((r) => ({ value: r, label: t(`logins.result.${r}`) }))}
          className="filter-select"
          data-testid="filter-result"
        />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker allowEmpty={[true, true]} />
      </Form.Item>
      <FilterButtons
        searchTestId="logins-search"
        onReset={() => {
          form.resetFields();
          onApply({});
        }}
      >
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={onExport} data-testid="logins-export">
          {t('logins.export')}
        </Button>
      </FilterButtons>
    </Form>
  );
}
