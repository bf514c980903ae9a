import { ReloadOutlined } from '@ant-design/icons';
import { createProxyAccountBody, type ProxyAccountDto } from '@resi/contract';
import { Button, Form, Input, InputNumber, Modal, Space, Switch, type ButtonProps, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { gbToBytes } from '@/lib/format';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateProxyAccount } from '../api/create-proxy-account';
import { useUpdateProxyAccount } from '../api/update-proxy-account';
import { newAccountValues, randomProxyPassword, toAccountValues, toCreateBody, toUpdateBody, type AccountValues } from './account-values';

/** `null` closed, `'new'` creates, an account edits it (password, cap, remark; the username is fixed). */
export type AccountModalState = null | 'new' | ProxyAccountDto;

export function AccountModal({ state, onClose }: { state: AccountModalState; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccountValues>();
  const create = useCreateProxyAccount();
  const update = useUpdateProxyAccount();
  const editing = state !== null && state !== 'new' ? state : null;
  const pending = create.isPending || update.isPending;

  // Empty is "no cap"; otherwise at least one byte, as the contract says.
  const capRule: FormRule = {
    validator: async (_rule, value: unknown) => {
      if (value === null || value === undefined) return;
      if (typeof value !== 'number' || gbToBytes(value) < 1) throw new Error(t('validation.bytes'));
    },
  };

  const submit = (values: AccountValues) => {
    const done = (res: { message?: string }) => {
      notify.success(res.message || t('rotating.accounts.saved'));
      onClose();
    };
    if (editing) {
      const body = toUpdateBody(editing, values);
      if (Object.keys(body).length === 0) return onClose();
      update.mutate({ id: editing.id, body }, { onSuccess: done });
    } else {
      create.mutate(toCreateBody(values), { onSuccess: done });
    }
  };

  return (
    <Modal
      open={state !== null}
      title={editing ? t('rotating.accounts.editTitle', { username: editing.username }) : t('rotating.accounts.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={pending ? t('common.submitting') : t('rotating.accounts.save')}
      cancelText={t('rotating.accounts.cancel')}
      confirmLoading={pending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'account-submit' } as ButtonProps}
      data-testid="account-modal"
    >
      {state !== null ? (
        <Form<AccountValues> name="proxy-account" form={form} layout="vertical" requiredMark={false} initialValues={editing ? toAccountValues(editing) : newAccountValues()} onFinish={submit} preserve={false}>
          <Form.Item
            name="username"
            label={t('rotating.accounts.username')}
            extra={editing ? undefined : t('rotating.accounts.usernameHint')}
            rules={editing ? [] : [schemaRule(createProxyAccountBody.shape.username, t)]}
          >
            <Input disabled={editing !== null} autoComplete="off" maxLength={32} data-testid="account-username" />
          </Form.Item>
          <Form.Item label={t('rotating.accounts.password')} extra={t('rotating.accounts.passwordHint')}>
            <Space.Compact className="full-width">
              <Form.Item name="password" noStyle rules={[schemaRule(createProxyAccountBody.shape.password, t)]}>
                <Input autoComplete="off" maxLength={32} className="mono" data-testid="account-password" />
              </Form.Item>
              <Button icon={<ReloadOutlined />} onClick={() => form.setFieldValue('password', randomProxyPassword())} title={t('rotating.accounts.generate')}>
                {t('rotating.accounts.generate')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item name="limitGb" label={t('rotating.accounts.limit')} extra={t('rotating.accounts.limitHint')} rules={[capRule]}>
            <InputNumber min={0} step={1} suffix="GB" placeholder={t('rotating.accounts.noLimit')} className="full-width" data-testid="account-limit" />
          </Form.Item>
          <PauseAtCapField />
          <Form.Item
            name="maxConnections"
            label={t('rotating.accounts.maxConnections')}
            extra={t('rotating.accounts.maxConnectionsHint')}
            rules={[schemaRule(createProxyAccountBody.shape.maxConnections, t, { optional: true })]}
          >
            <InputNumber min={1} max={10000} step={1} precision={0} placeholder={t('rotating.accounts.noMaxConnections')} className="full-width" data-testid="account-max-connections" />
          </Form.Item>
          <Form.Item name="remark" label={t('rotating.accounts.remark')}>
            <Input maxLength={100} data-testid="account-remark" />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}

/**
 * What happens at the cap, shown only once a cap is typed (docs/api.md#programs): the account is refused until the
 * cap is raised, or the cap only alerts and the account keeps drawing on the balance.
 */
function PauseAtCapField() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<AccountValues>();
  const cap = Form.useWatch('limitGb', form);
  const pause = Form.useWatch('pauseAtCap', form) ?? true;
  if (typeof cap !== 'number') return null;
  return (
    <Form.Item
      name="pauseAtCap"
      label={t('rotating.accounts.pauseAtCap')}
      valuePropName="checked"
      extra={t(pause ? 'rotating.accounts.pauseAtCapOn' : 'rotating.accounts.pauseAtCapOff')}
    >
      <Switch checkedChildren={t('rotating.accounts.pause')} unCheckedChildren={t('rotating.accounts.keepGoing')} data-testid="account-pause-at-cap" />
    </Form.Item>
  );
}
