import { EnvironmentOutlined, KeyOutlined, PlusOutlined, StopOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { adminResetPassBody, updateUserBody, type AdminUserDto } from '@resi/contract';
import { Button, Form, Input, InputNumber, Modal, Space, Switch, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useResetUserPassword } from '../api/reset-user-password';
import { useUpdateUser } from '../api/update-user';
import { RechargeModal } from './recharge-modal';
import { StaticGrantModal } from './static-grant-modal';

interface ProfileValues {
  isDistributor: boolean;
  commissionRate: number | null;
  remark: string;
}

/** What an admin does to one user: standing, password, distributor and remark, and traffic or static IPs by hand. */
export function UserActions({ user, onChanged }: { user: AdminUserDto; onChanged: () => void }) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const [form] = Form.useForm<ProfileValues>();
  const update = useUpdateUser();
  const reset = useResetUserPassword();
  const [resetting, setResetting] = useState(false);
  const [generated, setGenerated] = useState<string | null>(null);
  const [recharging, setRecharging] = useState(false);
  const [granting, setGranting] = useState(false);
  const isDistributor = Form.useWatch('isDistributor', form);
  const known = { id: user.id, email: user.email };
  const disabling = user.status === 'active';

  const confirmStatus = () =>
    modal.confirm({
      title: t(disabling ? 'users.actions.disableTitle' : 'users.actions.enableTitle', { email: user.email }),
      content: t(disabling ? 'users.actions.disableContent' : 'users.actions.enableContent'),
      okText: t(disabling ? 'users.actions.disable' : 'users.actions.enable'),
      okButtonProps: { danger: disabling, 'data-testid': 'status-confirm' } as never,
      cancelText: t('admin.cancel'),
      onOk: () =>
        update
          .mutateAsync({ id: user.id, status: disabling ? 'disabled' : 'active' })
          .then((res) => notify.success(res.message || t('users.actions.saved')))
          .then(onChanged)
          .catch(() => undefined),
    });

  const saveProfile = (v: ProfileValues) =>
    update.mutate(
      { id: user.id, isDistributor: v.isDistributor, commissionRate: v.isDistributor ? (v.commissionRate ?? null) : undefined, remark: v.remark.trim() || null },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('users.actions.saved'));
          onChanged();
        },
      },
    );

  const submitReset = (v: { password?: string }) =>
    reset.mutate(
      { userId: user.id, password: v.password || undefined },
      {
        onSuccess: (res) => {
          setResetting(false);
          notify.success(res.message || t('users.reset.done'));
          if (res.data.password) setGenerated(res.data.password);
          onChanged();
        },
      },
    );

  return (
    <div className="user-actions" data-testid="user-actions">
      {modalHolder}
      <Space wrap className="user-actions__buttons">
        <Button danger={disabling} icon={disabling ? <StopOutlined /> : <CheckCircleOutlined />} onClick={confirmStatus} data-testid="user-toggle-status">
          {t(disabling ? 'users.actions.disable' : 'users.actions.enable')}
        </Button>
        <Button icon={<KeyOutlined />} onClick={() => setResetting(true)} data-testid="user-reset-password">
          {t('users.reset.open')}
        </Button>
        <Button icon={<PlusOutlined />} onClick={() => setRecharging(true)} data-testid="user-recharge">
          {t('admin.recharge.open')}
        </Button>
        <Button icon={<EnvironmentOutlined />} onClick={() => setGranting(true)} data-testid="user-static-grant">
          {t('admin.staticGrant.open')}
        </Button>
      </Space>

      <Form<ProfileValues>
        name="user-profile"
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={saveProfile}
        initialValues={{ isDistributor: user.isDistributor, commissionRate: user.commissionRate, remark: user.remark ?? '' }}
        className="user-actions__form"
      >
        <div className="form-row">
          <Form.Item name="isDistributor" label={t('users.profile.distributor')} valuePropName="checked">
            <Switch data-testid="user-distributor-switch" />
          </Form.Item>
          <Form.Item
            name="commissionRate"
            label={t('users.profile.commissionRate')}
            extra={t('users.profile.commissionHint')}
            rules={[schemaRule(updateUserBody.shape.commissionRate, t, { optional: true })]}
          >
            <InputNumber min={0} max={100} step={1} suffix="%" disabled={!isDistributor} className="full-width" data-testid="user-commission" />
          </Form.Item>
        </div>
        <Form.Item name="remark" label={t('users.profile.remark')} rules={[schemaRule(updateUserBody.shape.remark, t, { optional: true })]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="user-remark" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="user-profile-save">
          {t('users.profile.save')}
        </Button>
      </Form>

      <Modal
        open={resetting}
        onCancel={() => setResetting(false)}
        title={t('users.reset.title', { email: user.email })}
        okText={t('users.reset.submit')}
        cancelText={t('admin.cancel')}
        okButtonProps={{ htmlType: 'submit', form: 'user-reset', loading: reset.isPending, 'data-testid': 'reset-submit' } as ButtonProps}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('users.reset.hint')}</Typography.Paragraph>
        <Form id="user-reset" name="user-reset" layout="vertical" requiredMark={false} onFinish={submitReset}>
          <Form.Item name="password" label={t('users.reset.password')} rules={[schemaRule(adminResetPassBody.shape.password, t, { optional: true })]}>
            <Input.Password autoComplete="new-password" placeholder={t('users.reset.placeholder')} data-testid="reset-password" />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={generated !== null}
        onCancel={() => setGenerated(null)}
        onOk={() => setGenerated(null)}
        title={t('users.reset.generatedTitle')}
        okText={t('users.reset.generatedOk')}
        // The reset is done: closing is the only thing left to do, so no Cancel beside it.
        footer={(_, { OkBtn }) => <OkBtn />}
        data-testid="generated-password"
      >
        <Typography.Paragraph>{t('users.reset.generatedHint')}</Typography.Paragraph>
        {generated && <CopyableCode value={generated} />}
      </Modal>

      <RechargeModal
        open={recharging}
        user={known}
        onClose={() => {
          setRecharging(false);
          onChanged();
        }}
      />
      <StaticGrantModal
        open={granting}
        user={known}
        onClose={() => {
          setGranting(false);
          onChanged();
        }}
      />
    </div>
  );
}
