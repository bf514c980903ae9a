import { DeleteOutlined, PlusOutlined, AimOutlined } from '@ant-design/icons';
import { Button, Form, Input, List, Popconfirm, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { type AllowlistTarget, useAddAllowlist, useAllowlist, useRemoveAllowlist } from '@/api/allowlist';

interface Props {
  target: AllowlistTarget;
  /** A rotating account's "password too" rule; a static IP has none. */
  requirePassword?: { value: boolean; onChange: (value: boolean) => void; saving: boolean };
}

/**
 * An allowlist (docs/gateway.md#allowlist): the addresses that use this proxy without a password, adding one
 * (or this browser's own, shown before it is saved) and removing one. Errors (taken, full, not an address)
 * come back localized from the server and are shown by the query client's handler.
 */
export function AllowlistEditor({ target, requirePassword }: Props) {
  const { t } = useTranslation();
  const list = useAllowlist(target);
  const add = useAddAllowlist(target);
  const remove = useRemoveAllowlist(target);
  const [form] = Form.useForm<{ address: string; label: string }>();
  const caller = list.data?.callerAddress;

  const submit = (body: { address?: string; label?: string | null }) =>
    add.mutateAsync(body).then(
      (res) => {
        notify.success(res.message || t('proxy.allowlist.added'));
        form.resetFields();
      },
      () => undefined,
    );

  return (
    <div className="allowlist" data-testid="allowlist">
      <Typography.Paragraph type="secondary">{t('proxy.allowlist.hint')}</Typography.Paragraph>
      <QueryState query={list} rows={3} errorTitle={t('proxy.allowlist.failed')}>
        {(data) => (
          <List
            size="small"
            bordered
            locale={{ emptyText: t('proxy.allowlist.empty') }}
            dataSource={data.items}
            data-testid="allowlist-entries"
            renderItem={(entry) => (
              <List.Item
                data-testid="allowlist-entry"
                data-address={entry.address}
                actions={[
                  <Popconfirm
                    key="remove"
                    title={t('proxy.allowlist.removeConfirm', { address: entry.address })}
                    okText={t('proxy.allowlist.remove')}
                    cancelText={t('proxy.allowlist.keep')}
                    onConfirm={() => remove.mutateAsync(entry.id).then((res) => notify.success(res.message || t('proxy.allowlist.removed')), () => undefined)}
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('proxy.allowlist.remove')} data-testid="allowlist-remove" />
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={<Typography.Text className="mono">{entry.address}</Typography.Text>}
                  description={[entry.label, t('proxy.allowlist.addedAt', { time: formatDateTime(entry.createdAt) })].filter(Boolean).join(' · ')}
                />
              </List.Item>
            )}
          />
        )}
      </QueryState>
      <Form form={form} layout="vertical" requiredMark={false} className="allowlist-form" onFinish={(v) => submit({ address: v.address.trim(), label: v.label?.trim() || null })}>
        {/* The address on a line of its own: an IPv6 range needs the width, at 390 px too. */}
        <Form.Item name="address" className="allowlist-address" rules={[{ required: true, whitespace: true, message: t('proxy.allowlist.addressRequired') }]}>
          <Input placeholder={t('proxy.allowlist.addressPlaceholder')} aria-label={t('proxy.allowlist.address')} data-testid="allowlist-address" />
        </Form.Item>
        <Space.Compact block>
          <Form.Item name="label" noStyle>
            <Input placeholder={t('proxy.allowlist.labelPlaceholder')} aria-label={t('proxy.allowlist.label')} maxLength={100} data-testid="allowlist-label" />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={add.isPending} data-testid="allowlist-add">
            {t('proxy.allowlist.add')}
          </Button>
        </Space.Compact>
      </Form>
      <Space wrap className="allowlist-extra">
        <Button icon={<AimOutlined />} disabled={!caller} loading={add.isPending} onClick={() => void submit({})} data-testid="allowlist-add-mine">
          {caller ? t('proxy.allowlist.addMine', { address: caller }) : t('proxy.allowlist.addMineUnknown')}
        </Button>
        {requirePassword ? (
          <Space>
            <Switch checked={requirePassword.value} loading={requirePassword.saving} onChange={requirePassword.onChange} aria-label={t('proxy.allowlist.requirePassword')} data-testid="allowlist-require-password" />
            <Typography.Text>{t('proxy.allowlist.requirePassword')}</Typography.Text>
          </Space>
        ) : null}
      </Space>
    </div>
  );
}
