import { LINE_FORMATS, MAX_LINES, normalizeLang, PROXY_PROTOCOLS, STICKY_MAX_LIFE, STICKY_MIN_LIFE, type LineFormat, type ProxyAccountDto, type ProxyProtocol } from '@resi/contract';
import { Card, Cascader, Form, InputNumber, Radio, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegions } from '@/api/get-regions';
import { QueryError } from '@/components/query-state';
import type { LineSettings } from './line-settings';
import { regionOptions } from './region-options';

interface Props {
  accounts: ProxyAccountDto[];
  settings: LineSettings;
  onChange: (patch: Partial<LineSettings>) => void;
  /** The accounts are still on their way: the form is shown as it will be, disabled, so nothing below it moves. */
  loading?: boolean;
}

/** The choices behind the lines: account, protocol, exit area, rotating or sticky, how many, which format. */
export function LineSettingsCard({ accounts, settings, onChange, loading = false }: Props) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const regions = useRegions();
  const options = useMemo(() => regionOptions(regions.data ?? [], lang), [regions.data, lang]);

  return (
    <Card variant="borderless" className="surface-card" title={t('proxy.settings.title')} data-testid="proxy-settings">
      <Form name="proxy-settings" layout="vertical" requiredMark={false} className="proxy-settings" disabled={loading}>
        <Form.Item label={t('proxy.settings.account')} htmlFor="proxy-settings-account">
          <Select<number>
            id="proxy-settings-account"
            value={settings.accountId}
            onChange={(accountId) => onChange({ accountId })}
            options={accounts.map((a) => ({ value: a.id, label: a.status === 'active' ? a.username : `${a.username} (${t('proxy.settings.disabled')})` }))}
            loading={loading}
            data-testid="settings-account"
          />
        </Form.Item>
        <Form.Item label={t('proxy.settings.protocol')}>
          <Radio.Group
            aria-label={t('proxy.settings.protocol')}
            optionType="button"
            value={settings.protocol}
            onChange={(e) => onChange({ protocol: e.target.value as ProxyProtocol })}
            options={PROXY_PROTOCOLS.map((p) => ({ value: p, label: t(`proxy.protocol.${p}`) }))}
            data-testid="settings-protocol"
          />
        </Form.Item>
        <Form.Item
          label={t('proxy.settings.region')}
          extra={regions.isError ? <QueryError query={regions} title={t('proxy.settings.regionsFailed')} /> : t('proxy.settings.regionHint')}
          htmlFor="proxy-settings-region"
        >
          <Cascader
            id="proxy-settings-region"
            value={settings.region}
            onChange={(path) => onChange({ region: (path ?? []).map(String) })}
            options={options}
            changeOnSelect
            allowClear
            showSearch
            loading={regions.isPending}
            placeholder={t('proxy.settings.anyRegion')}
            data-testid="settings-region"
          />
        </Form.Item>
        <Form.Item label={t('proxy.settings.mode')} extra={settings.sticky ? t('proxy.settings.stickyHint') : t('proxy.settings.rotatingHint')}>
          <Radio.Group
            aria-label={t('proxy.settings.mode')}
            optionType="button"
            value={settings.sticky ? 'sticky' : 'rotating'}
            onChange={(e) => onChange({ sticky: e.target.value === 'sticky' })}
            options={[
              { value: 'rotating', label: t('proxy.settings.rotating') },
              { value: 'sticky', label: t('proxy.settings.sticky') },
            ]}
            data-testid="settings-mode"
          />
        </Form.Item>
        {settings.sticky ? (
          <Form.Item label={t('proxy.settings.life')} validateStatus={settings.lifeMinutes === null ? 'error' : undefined} htmlFor="proxy-settings-life">
            <InputNumber
              id="proxy-settings-life"
              min={STICKY_MIN_LIFE}
              max={STICKY_MAX_LIFE}
              precision={0}
              value={settings.lifeMinutes}
              onChange={(lifeMinutes) => onChange({ lifeMinutes })}
              suffix={t('proxy.settings.minutes')}
              className="full-width"
              data-testid="settings-life"
            />
          </Form.Item>
        ) : null}
        <Form.Item label={t('proxy.settings.count')} validateStatus={settings.count === null ? 'error' : undefined} htmlFor="proxy-settings-count">
          <InputNumber id="proxy-settings-count" min={1} max={MAX_LINES} precision={0} value={settings.count} onChange={(count) => onChange({ count })} className="full-width" data-testid="settings-count" />
        </Form.Item>
        <Form.Item label={t('proxy.settings.format')} htmlFor="proxy-settings-format">
          <Select<LineFormat>
            id="proxy-settings-format"
            value={settings.format}
            onChange={(format) => onChange({ format })}
            options={LINE_FORMATS.map((f) => ({ value: f, label: t(`proxy.format.${formatKey(f)}`) }))}
            data-testid="settings-format"
          />
        </Form.Item>
      </Form>
    </Card>
  );
}

/** i18n keys cannot hold `:` or `@`: one key per format. */
export function formatKey(format: LineFormat): string {
  switch (format) {
    case 'host:port:user:pass':
      return 'hostPortUserPass';
    case 'user:pass@host:port':
      return 'userPassAtHostPort';
    case 'url':
      return 'url';
    case 'curl':
      return 'curl';
  }
}
