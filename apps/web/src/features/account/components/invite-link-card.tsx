import { CopyOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '@/lib/clipboard';
import { BASE_PATH } from '@/lib/constants';
import { notify } from '@/lib/notify';

/** `${origin}/manage/user/register?invite=CODE` (docs/business-rules.md#invitations-and-channels). */
export function inviteLink(origin: string, inviteCode: string): string {
  return `${origin}${BASE_PATH}user/register?invite=${encodeURIComponent(inviteCode)}`;
}

export function InviteLinkCard({ inviteCode }: { inviteCode: string }) {
  const { t } = useTranslation();
  const link = inviteLink(window.location.origin, inviteCode);
  const copy = async () => {
    if (await copyText(link)) notify.success(t('account.invite.copied'));
    else notify.error(t('account.invite.copyFailed'));
  };
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={
        <Space>
          <ShareAltOutlined />
          {t('account.invite.title')}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('account.invite.description')}</Typography.Paragraph>
      <Space.Compact block>
        <Input value={link} readOnly data-testid="invite-link" />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="copy-invite">
          {t('account.invite.copy')}
        </Button>
      </Space.Compact>
      <div className="invite-code">
        {t('account.invite.code')}: <Typography.Text code>{inviteCode}</Typography.Text>
      </div>
    </Card>
  );
}
