import { STATISTICS_MAX_DAYS } from '@resi/contract';
import { DatePicker, Segmented, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

export type StatisticsRange = [Dayjs, Dayjs];

export interface StatisticsFilterValue {
  range: StatisticsRange;
  groupBy: 'day' | 'month';
}

/** Dates (UTC, both inclusive) and grouping; the server refuses a window longer than the grouping allows. */
export function StatisticsFilters({ value, onChange }: { value: StatisticsFilterValue; onChange: (patch: Partial<StatisticsFilterValue>) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={[12, 12]}>
      <DatePicker.RangePicker
        value={value.range}
        allowClear={false}
        onChange={(range) => range?.[0] && range[1] && onChange({ range: [range[0], range[1]] })}
        data-testid="statistics-range"
      />
      <Segmented<'day' | 'month'>
        value={value.groupBy}
        onChange={(groupBy) => onChange({ groupBy })}
        options={[
          { value: 'day', label: t('statistics.filters.day') },
          { value: 'month', label: t('statistics.filters.month') },
        ]}
        data-testid="statistics-group-by"
      />
      <span className="muted">{t('statistics.filters.note', { days: STATISTICS_MAX_DAYS.day })}</span>
    </Space>
  );
}
