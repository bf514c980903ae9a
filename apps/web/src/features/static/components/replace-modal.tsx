import { STATIC_REPLACE_REASONS, type StaticProxyDto } from '@resi/contract';
import { Alert, Form, Input, Modal, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { useReplaceStaticProxy } from '../api/replace-static-proxy';

type Reason = (typeof STATIC_REPLACE_REASONS)[number];

/** Asking for another exit for one IP: a reason and an optional note; the quota left is shown. */
export function ReplaceModal({ proxy, onClose }: { proxy: StaticProxyDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const replace = useReplaceStaticProxy();
  const [form] = Form.useForm<{ reason: Reason; note?: string }>();

  const submit = async () => {
    if (!proxy) return;
    const values = await form.validateFields();
    const note = values.note?.trim();
    replace.mutate(
      { id: proxy.id, body: { reason: values.reason, ...(note ? { note } : {}) } },
      {
        onSuccess: (next) => {
          notify.success(t('static.replace.done', { ip: next.ip }));
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={proxy !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('static.replace.submit')}
      okButtonProps={{ loading: replace.isPending, 'data-testid': 'replace-submit' } as ButtonProps}
      title={t('static.replace.title', { ip: proxy?.ip ?? '' })}
      destroyOnHidden
      data-testid="replace-modal"
    >
      {proxy ? (
        <Form form={form} layout="vertical" initialValues={{ reason: 'not-working' }} preserve={false}>
          <Alert type="info" showIcon className="static-replace__quota" title={t('static.replace.quota', { count: proxy.replacementsLeft })} data-testid="replace-quota" />
          <Form.Item name="reason" label={t('static.replace.reason')} rules={[{ required: true }]}>
            <Select options={STATIC_REPLACE_REASONS.map((r) => ({ value: r, label: t(`static.replace.reasons.${r}`) }))} data-testid="replace-reason" />
          </Form.Item>
          <Form.Item name="note" label={t('static.replace.note')} rules={[{ max: 150, message: t('static.replace.noteTooLong') }]}>
            <Input.TextArea rows={3} maxLength={150} showCount data-testid="replace-note" />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}
