import { CHANNEL_KEYS, type ChannelKey, type DistributionInvite } from '@resi/contract';
import { Button, Card, Flex, Form, Input, Select, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tableEmptyText } from '@/components/query-state';
import { channelUrl } from './channel-link';
import { LinkActions } from './link-actions';

interface ChannelValues {
  key: ChannelKey;
  value: string;
}

/** A channel value as the server's channel field takes it (1–64 characters once trimmed). */
const CHANNEL_VALUE_MAX = 64;

/**
 * The invite link, a form that makes a channel link from it (client-side: the server lists a channel
 * only once someone landed through it) and the channel links with their landings and registrations.
 * Without `invite` (still loading) the card stands in its final shape, the link and code as placeholders and
 * the form disabled, so that nothing below it moves when they come (docs/console.md#loading-empty-and-error).
 */
export function InviteLinks({ invite }: { invite?: DistributionInvite }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChannelValues>();
  const [made, setMade] = useState<string | null>(null);
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.invite.title')} data-testid="distribution-invite" aria-busy={!invite}>
      <Flex vertical gap={16}>
        <div>
          <Typography.Text type="secondary">{t('distributionManage.invite.link')}</Typography.Text>
          {invite ? (
            <>
              <Flex gap={8} align="center" wrap>
                <Typography.Text className="mono dist-link" data-testid="distribution-invite-link">
                  {invite.inviteLink}
                </Typography.Text>
                <LinkActions url={invite.inviteLink} testId="distribution-invite-link" />
              </Flex>
              <Typography.Text type="secondary">
                {t('distributionManage.invite.code')} <span className="mono" data-testid="distribution-invite-code">{invite.inviteCode}</span>
              </Typography.Text>
            </>
          ) : (
            <Skeleton active title={false} paragraph={{ rows: 3 }} className="dist-invite-loading" />
          )}
        </div>
        <Form<ChannelValues>
          form={form}
          layout="inline"
          className="filter-form"
          initialValues={{ key: 'hz' }}
          disabled={!invite}
          onFinish={(v) => invite && setMade(channelUrl(invite.inviteLink, v.key, v.value))}
          onValuesChange={() => setMade(null)}
          data-testid="channel-link-form"
        >
          <Form.Item name="key" label={t('distributionManage.invite.channelKey')}>
            <Select<ChannelKey> options={CHANNEL_KEYS.map((k) => ({ value: k, label: k }))} className="dist-channel-key" data-testid="channel-link-key" />
          </Form.Item>
          <Form.Item
            name="value"
            label={t('distributionManage.invite.channelValue')}
            rules={[{ required: true, whitespace: true, max: CHANNEL_VALUE_MAX, message: t('validation.channel') }]}
          >
            <Input maxLength={CHANNEL_VALUE_MAX} placeholder={t('distributionManage.invite.channelValuePlaceholder')} className="filter-input" data-testid="channel-link-value" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" data-testid="channel-link-make">
              {t('distributionManage.invite.make')}
            </Button>
          </Form.Item>
        </Form>
        {made ? (
          <div>
            <Flex gap={8} align="center" wrap>
              <Typography.Text className="mono dist-link" data-testid="channel-link-url">
                {made}
              </Typography.Text>
              <LinkActions url={made} testId="channel-link-url" />
            </Flex>
            <Typography.Text type="secondary">{t('distributionManage.invite.madeHint')}</Typography.Text>
          </div>
        ) : null}
        <Table
          size="small"
          rowKey="url"
          dataSource={invite?.links ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: tableEmptyText(!invite, t('distributionManage.invite.noChannels')) }}
          data-testid="distribution-channel-links"
          columns={[
            { title: t('distributionManage.invite.channel'), key: 'channel', className: 'nowrap', render: (_v, l) => <span className="mono">{`${l.channelKey}=${l.channelValue}`}</span> },
            { title: t('distributionManage.invite.visits'), dataIndex: 'visits', align: 'right' },
            { title: t('distributionManage.invite.registrations'), dataIndex: 'registrations', align: 'right' },
            // The actions come before the long link, so they stay in view on a narrow card.
            { title: t('distributionManage.invite.actions'), key: 'actions', className: 'nowrap', render: (_v, l) => <LinkActions url={l.url} testId="distribution-channel-link" /> },
            { title: t('distributionManage.invite.url'), dataIndex: 'url', className: 'nowrap', render: (url: string) => <span className="mono">{url}</span> },
          ]}
        />
      </Flex>
    </Card>
  );
}
