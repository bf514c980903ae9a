import { staticImportBody, type StaticImportLine, type StaticImportResult } from '@resi/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shopCurrency, useGoods } from '@/api/get-goods';
import { numberRule, optionalText, schemaRule } from '@/lib/form-rules';
import { currencyDigits, toMinorUnits } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useImportStaticInventory } from '../api/import-static-inventory';
import type { Namer } from './static-names';

interface ImportValues {
  regionId: number;
  businessIds?: number[];
  isp?: string;
  /** Major units of the shop currency. */
  costPerMonth?: number | null;
  lines: string;
}

const OUTCOME_COLORS: Record<StaticImportLine['status'], string> = { created: 'green', duplicate: 'gold', invalid: 'red' };

/**
 * What stays in the box after an import: the lines not taken, to fix and send again. Taken lines leave it, with
 * their upstream passwords. Line numbers count every pasted line (docs/business-rules.md#static-residential-ips).
 */
export function linesLeft(pasted: string, results: readonly StaticImportLine[]): string {
  const created = new Set(results.filter((r) => r.status === 'created').map((r) => r.line));
  return pasted
    .split(/\r?\n/)
    .filter((_, index) => !created.has(index + 1))
    .join('\n')
    .trim();
}

/** Pasted upstream lines into the inventory (docs/business-rules.md#static-residential-ips): one outcome per line. */
export function ImportCard({ names }: { names: Namer }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ImportValues>();
  const importer = useImportStaticInventory();
  const [outcome, setOutcome] = useState<{ result: StaticImportResult; message: string } | null>(null);
  // The IPs' monthly cost is entered in the shop currency, which the catalogue's prices carry; unknown (nothing for
  // sale, or the catalogue not answering), the field is left out and the IPs cost 0 until edited.
  const goods = useGoods();
  const currency = goods.data ? shopCurrency(goods.data) : null;

  const submit = (values: ImportValues) => {
    const cost = currency !== null && values.costPerMonth != null ? { costPerMonth: toMinorUnits(values.costPerMonth, currency) } : {};
    importer.mutate(
      { regionId: values.regionId, businessIds: values.businessIds ?? [], isp: optionalText(values.isp), lines: values.lines, ...cost },
      {
        onSuccess: (res) => {
          setOutcome({ result: res.data, message: res.message ?? '' });
          notify.success(res.message || t('staticAdmin.import.done'));
          form.setFieldValue('lines', linesLeft(values.lines, res.data.results));
        },
      },
    );
  };

  return (
    <Card variant="borderless" className="surface-card" title={t('staticAdmin.import.title')} data-testid="static-import">
      <Form<ImportValues> name="static-import" form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <div className="static-import-fields">
          <Form.Item name="regionId" label={t('staticAdmin.fields.region')} rules={[numberRule(staticImportBody.shape.regionId, t)]}>
            <Select options={names.regionOptions} placeholder={t('staticAdmin.fields.regionPlaceholder')} data-testid="import-region" />
          </Form.Item>
          <Form.Item name="businessIds" label={t('staticAdmin.fields.businessLines')} extra={t('staticAdmin.fields.businessLinesHint')}>
            <Select mode="multiple" allowClear options={names.businessOptions} placeholder={t('staticAdmin.allLines')} data-testid="import-business" />
          </Form.Item>
          <Form.Item name="isp" label={t('staticAdmin.fields.isp')} rules={[schemaRule(staticImportBody.shape.isp, t, { optional: true })]}>
            <Input maxLength={100} data-testid="import-isp" />
          </Form.Item>
          {currency !== null && (
            <Form.Item
              name="costPerMonth"
              label={t('staticAdmin.fields.costPerMonth', { currency })}
              extra={t('staticAdmin.fields.costPerMonthHint')}
              rules={[numberRule(staticImportBody.shape.costPerMonth, t, (v) => toMinorUnits(v, currency), { optional: true })]}
            >
              <InputNumber min={0} precision={currencyDigits(currency)} className="full-width" data-testid="import-cost" />
            </Form.Item>
          )}
        </div>
        <Form.Item
          name="lines"
          label={t('staticAdmin.import.lines')}
          extra={t('staticAdmin.import.linesHint')}
          rules={[{ required: true, whitespace: true, message: t('staticAdmin.import.linesRequired') }, schemaRule(staticImportBody.shape.lines, t)]}
        >
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} className="mono" placeholder="http://user:pass@203.0.113.5:8000" data-testid="import-lines" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={importer.isPending} data-testid="import-submit">
          {t('staticAdmin.import.submit')}
        </Button>
      </Form>
      {outcome && (
        <div className="static-import-results" data-testid="import-results">
          <Alert type={outcome.result.invalid + outcome.result.duplicate === 0 ? 'success' : 'warning'} showIcon title={outcome.message} data-testid="import-summary" />
          <Table<StaticImportLine>
            size="small"
            rowKey="line"
            dataSource={outcome.result.results}
            pagination={outcome.result.results.length > 10 ? { pageSize: 10 } : false}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: t('staticAdmin.import.line'), dataIndex: 'line', width: 70 },
              { title: t('staticAdmin.import.outcome'), dataIndex: 'status', render: (s: StaticImportLine['status']) => <Tag color={OUTCOME_COLORS[s]}>{t(`staticAdmin.outcome.${s}`)}</Tag> },
              { title: t('staticAdmin.columns.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
              { title: t('staticAdmin.import.reason'), dataIndex: 'reason', render: (r: string | null) => r ?? '—' },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
