import { createWebhookBody, WEBHOOK_EVENTS, type CreatedWebhookDto, type WebhookEvent } from '@resi/contract';
import { Checkbox, Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateWebhook } from '../api/create-webhook';
import { WEBHOOK_EVENT_TEXT } from './webhook-events';

interface FormValues {
  url: string;
  events: WebhookEvent[];
}

/**
 * A new endpoint (docs/api.md#webhooks): its URL and the events it is sent, each explained in a line. Fields are
 * checked by the contract's schemas; the server says the rest (ten endpoints already, an address it refuses) in a
 * toast, and the form stays open with what was typed.
 */
export function WebhookCreateModal({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedWebhookDto) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateWebhook();

  const submit = (values: FormValues) => {
    create.mutate(
      { url: values.url.trim(), events: values.events },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('webhooks.create.done'));
          onCreated(res.data);
        },
      },
    );
  };

  return (
    <Modal
      open
      onCancel={onClose}
      title={t('webhooks.create.title')}
      okText={t('webhooks.create.submit')}
      cancelText={t('webhooks.create.cancel')}
      okButtonProps={{ htmlType: 'submit', form: 'webhook-create', loading: create.isPending, 'data-testid': 'webhook-create-submit' } as ButtonProps}
      destroyOnHidden
      data-testid="webhook-create-modal"
    >
      <Form<FormValues> id="webhook-create" name="webhook-create" form={form} layout="vertical" requiredMark={false} initialValues={{ events: [] }} onFinish={submit}>
        <Form.Item name="url" label={t('webhooks.create.url')} extra={t('webhooks.create.urlHint')} rules={[schemaRule(createWebhookBody.shape.url, t)]}>
          <Input placeholder="https://hooks.example.com/resi" autoComplete="off" inputMode="url" className="mono" data-testid="webhook-url-input" />
        </Form.Item>
        <Form.Item name="events" label={t('webhooks.create.events')} rules={[schemaRule(createWebhookBody.shape.events, t)]}>
          <Checkbox.Group className="api-key-scope-choice" data-testid="webhook-events-input">
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} data-testid={`webhook-event-${event}`}>
                <span className="api-key-scope-choice__name">{t(WEBHOOK_EVENT_TEXT[event].name)}</span> <span className="mono muted">{event}</span>
                <div className="muted">{t(WEBHOOK_EVENT_TEXT[event].hint)}</div>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
