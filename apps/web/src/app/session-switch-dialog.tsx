import { useQueryClient } from '@tanstack/react-query';
import { Modal, Typography, type ButtonProps } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { useCurrentUser } from '@/api/get-current-user';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { storage } from '@/lib/storage';
import { AntdProvider } from './antd-provider';

/**
 * Asks before a link's `?token=` replaces the session this tab holds (issue 9). No keeps the current
 * session; yes adopts the link's token as navigation rule 1 does (docs/console.md#navigation-rules), dropping
 * everything cached for the old one.
 */
export function SessionSwitchDialog() {
  const { t } = useTranslation();
  const pending = useSyncExternalStore(pendingSessionSwitch.subscribe, pendingSessionSwitch.get);
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  const current = useCurrentUser();

  const confirm = async () => {
    const token = pendingSessionSwitch.take();
    if (!token) return;
    storage.clearSession();
    storage.setToken(token);
    // Reset, not clear: the page behind the dialog stays mounted, and its queries must be fetched again
    // as the new account (clear() drops the cache but leaves mounted queries showing the old account's
    // data). Answers still on their way for the old session are cancelled first.
    await queryClient.cancelQueries();
    await queryClient.resetQueries();
    // The loader finds a token without a known user and waits for the new one (rule 5).
    void revalidator.revalidate();
  };

  // Asked over any page, the public ones (drawn without antd) too: it brings antd's theme with it.
  return (
    <AntdProvider>
      <Modal
        open={pending !== null}
        title={t('layout.switchSession.title')}
        okText={t('layout.switchSession.confirm')}
        cancelText={t('layout.switchSession.keep')}
        onOk={confirm}
        onCancel={pendingSessionSwitch.dismiss}
        maskClosable={false}
        okButtonProps={{ 'data-testid': 'session-switch-confirm', danger: true } as ButtonProps}
        cancelButtonProps={{ 'data-testid': 'session-switch-keep' } as ButtonProps}
        data-testid="session-switch"
      >
        <Typography.Paragraph>{t('layout.switchSession.body')}</Typography.Paragraph>
        {current ? <Typography.Paragraph strong>{t('layout.switchSession.current', { email: current.email })}</Typography.Paragraph> : null}
      </Modal>
    </AntdProvider>
  );
}
