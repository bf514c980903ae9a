import { staticInventoryUpdate, type StaticInventoryDto } from '@resi/contract';
import { Form, Input, InputNumber, Modal, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { currencyDigits, fromMinorUnits, toMinorUnits } from '@/lib/format';
import { numberRule, optionalText, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useUpdateStaticInventory } from '../api/update-static-inventory';
import type { Namer } from './static-names';

interface EditValues {
  regionId: number;
  businessIds?: number[];
  isp?: string | null;
  remark?: string | null;
  /** In currency units as typed (`12.5`), sent in minor units. */
  costPerMonth: number;
}

/**
 * A row's region, lines, ISP, remark and monthly cost (docs/business-rules.md#margin); the upstream is changed by
 * retiring and importing again.
 */
export function EditInventoryModal({ row, names, onClose }: { row: StaticInventoryDto | null; names: Namer; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditValues>();
  const update = useUpdateStaticInventory();

  const submit = (values: EditValues) => {
    if (!row) return;
    update.mutate(
      {
        id: row.id,
        body: {
          regionId: values.regionId,
          businessIds: values.businessIds ?? [],
          isp: optionalText(values.isp) ?? null,
          remark: optionalText(values.remark) ?? null,
          costPerMonth: toMinorUnits(values.costPerMonth, row.currency),
        },
      },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('staticAdmin.edit.done'));
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={row !== null}
      onCancel={onClose}
      title={t('staticAdmin.edit.title', { ip: row?.ip ?? '' })}
      okText={t('staticAdmin.edit.save')}
      cancelText={t('staticAdmin.cancel')}
      onOk={() => form.submit()}
      confirmLoading={update.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'edit-submit' } as ButtonProps}
      data-testid="static-edit"
    >
      {row && (
        <Form<EditValues>
          name="static-edit"
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          preserve={false}
          initialValues={{ regionId: row.regionId, businessIds: row.businessIds, isp: row.isp ?? '', remark: row.remark ?? '', costPerMonth: fromMinorUnits(row.costPerMonth, row.currency) }}
        >
          <Form.Item name="regionId" label={t('staticAdmin.fields.region')} rules={[numberRule(staticInventoryUpdate.shape.regionId, t)]}>
            <Select options={names.regionOptions} />
          </Form.Item>
          <Form.Item name="businessIds" label={t('staticAdmin.fields.businessLines')} extra={t('staticAdmin.fields.businessLinesHint')}>
            <Select mode="multiple" allowClear options={names.businessOptions} placeholder={t('staticAdmin.allLines')} />
          </Form.Item>
          <Form.Item name="isp" label={t('staticAdmin.fields.isp')} rules={[schemaRule(staticInventoryUpdate.shape.isp, t, { optional: true })]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            name="costPerMonth"
            label={t('staticAdmin.fields.costPerMonth', { currency: row.currency })}
            extra={t('staticAdmin.fields.costPerMonthHint')}
            rules={[numberRule(staticInventoryUpdate.shape.costPerMonth, t, (v) => toMinorUnits(v, row.currency))]}
          >
            <InputNumber min={0} precision={currencyDigits(row.currency)} className="full-width" data-testid="edit-cost" />
          </Form.Item>
          <Form.Item name="remark" label={t('staticAdmin.fields.remark')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="edit-remark" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
