import { CHANNEL_KEYS, CHANNEL_STATS_MAX_DAYS, type ChannelKey } from '@resi/contract';
import { DatePicker, Input, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

export interface ChannelFilterValue {
  range: [Dayjs, Dayjs];
  channelKey?: ChannelKey;
  channelValue?: string;
}

/** Dates (UTC, both inclusive), the channel key, and a channel value applied on Enter or search. */
export function ChannelFilters({ value, onChange }: { value: ChannelFilterValue; onChange: (patch: Partial<ChannelFilterValue>) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={[12, 12]}>
      <DatePicker.RangePicker
        value={value.range}
        allowClear={false}
        onChange={(range) => range?.[0] && range[1] && onChange({ range: [range[0], range[1]] })}
        data-testid="channel-range"
      />
      <Select<ChannelKey>
        allowClear
        value={value.channelKey}
        onChange={(channelKey) => onChange({ channelKey })}
        placeholder={t('channels.filters.channelKey')}
        className="filter-select"
        options={CHANNEL_KEYS.map((k) => ({ value: k, label: k }))}
        data-testid="channel-key"
      />
      <Input.Search
        allowClear
        defaultValue={value.channelValue}
        placeholder={t('channels.filters.channelValue')}
        onSearch={(text) => onChange({ channelValue: text.trim() || undefined })}
        className="filter-input"
        maxLength={64}
        data-testid="channel-value"
      />
      <span className="muted">{t('channels.filters.note', { days: CHANNEL_STATS_MAX_DAYS })}</span>
    </Space>
  );
}
