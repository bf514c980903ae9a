import type { StaticInventoryDto } from '@resi/contract';
import { Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useExtendStaticIps } from '../api/extend-static-ip';

interface ExtendValues {
  days: number;
  note: string;
}

/** Days at no charge for the customer's IP on a row (its holder), with a note kept on the order. */
export function ExtendModal({ row, onClose }: { row: StaticInventoryDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ExtendValues>();
  const extend = useExtendStaticIps();
  const holder = row?.holder;
  return (
    <Modal
      open={Boolean(holder)}
      title={t('staticAdmin.extend.title', { ip: row?.ip ?? '' })}
      okText={t('staticAdmin.extend.ok')}
      cancelText={t('staticAdmin.cancel')}
      okButtonProps={{ loading: extend.isPending, 'data-testid': 'extend-submit' } as never}
      onCancel={onClose}
      onOk={() => form.submit()}
      afterOpenChange={(open) => open && form.resetFields()}
      destroyOnHidden
    >
      {holder ? (
        <Typography.Paragraph type="secondary" data-testid="extend-holder">
          {t('staticAdmin.extend.holder', { user: holder.userId, expires: formatDateTime(holder.expiresAt) })}
        </Typography.Paragraph>
      ) : null}
      <Form<ExtendValues>
        form={form}
        layout="vertical"
        initialValues={{ days: 30, note: '' }}
        onFinish={(values) =>
          extend
            .mutateAsync({ staticProxyIds: [holder!.allocationId], days: values.days, note: values.note.trim() })
            .then((res) => {
              notify.success(res.message || t('staticAdmin.extend.done'));
              onClose();
            })
            .catch(() => undefined)
        }
      >
        <Form.Item name="days" label={t('staticAdmin.extend.days')} rules={[{ required: true, type: 'integer', min: 1, max: 3650, message: t('validation.staticDays') }]}>
          <InputNumber min={1} max={3650} precision={0} data-testid="extend-days" />
        </Form.Item>
        <Form.Item name="note" label={t('staticAdmin.extend.note')} rules={[{ required: true, whitespace: true, max: 200, message: t('validation.note') }]}>
          <Input maxLength={200} data-testid="extend-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
