import { normalizeLang, type ProxyAccountDto } from '@resi/contract';
import { DatePicker, Segmented, Select, Space } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '@/lib/format';
import { outsideUsageWindow, type UsageRange } from './usage-record-values';

export type Granularity = 'day' | 'hour';

export interface UsageFilters {
  range: UsageRange;
  granularity: Granularity;
  accountId?: number;
  country?: string;
}

interface Props {
  value: UsageFilters;
  onChange: (patch: Partial<UsageFilters>) => void;
  accounts: ProxyAccountDto[];
  /** Country codes to offer: the rotating pool's countries. */
  countries: string[];
}

/** Period (at most 90 days), day or hour buckets, one proxy account, one country. */
export function UsageRecordFilters({ value, onChange, accounts, countries }: Props) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const countryOptions = useMemo(
    () =>
      [...new Set([...countries, ...(value.country ? [value.country] : [])])]
        .map((code) => ({ value: code, label: `${countryName(code, lang)} (${code})` }))
        .sort((a, b) => a.label.localeCompare(b.label, lang)),
    [countries, value.country, lang],
  );

  return (
    <Space wrap size={[12, 12]}>
      <DatePicker.RangePicker
        value={value.range}
        allowClear={false}
        disabledDate={(day, { from }) => outsideUsageWindow(day, from)}
        onChange={(range) => range?.[0] && range[1] && onChange({ range: [range[0], range[1]] })}
        data-testid="usage-record-range"
      />
      <Segmented<Granularity>
        value={value.granularity}
        onChange={(granularity) => onChange({ granularity })}
        options={[
          { value: 'day', label: t('usage.filters.day') },
          { value: 'hour', label: t('usage.filters.hour') },
        ]}
        data-testid="usage-record-granularity"
      />
      <Select<number>
        allowClear
        placeholder={t('usage.filters.allAccounts')}
        value={value.accountId}
        onChange={(accountId) => onChange({ accountId })}
        options={accounts.map((a) => ({ value: a.id, label: a.username }))}
        className="filter-select"
        data-testid="usage-record-account"
      />
      <Select<string>
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('usage.filters.allCountries')}
        value={value.country}
        onChange={(country) => onChange({ country })}
        options={countryOptions}
        className="filter-select"
        data-testid="usage-record-country"
      />
    </Space>
  );
}
