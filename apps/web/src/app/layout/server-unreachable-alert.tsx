import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { serverReachability } from '@/lib/server-reachability';

/**
 * Shown above the page while the last current-user check got no answer (DESIGN §16): the session is kept,
 * and Retry runs the navigation's checks again; the notice goes as soon as the server answers, and what the
 * page failed to load meanwhile is asked for again, so the customer carries on without a Retry per card.
 */
export function ServerUnreachableAlert() {
  const { t } = useTranslation();
  const unreachable = useSyncExternalStore(serverReachability.subscribe, serverReachability.isUnreachable);
  const wanted = useSyncExternalStore(serverReachability.subscribe, serverReachability.noticeWanted);
  const revalidator = useRevalidator();
  const queryClient = useQueryClient();
  const wasUnreachable = useRef(unreachable);
  useEffect(() => {
    if (wasUnreachable.current && !unreachable) void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
    wasUnreachable.current = unreachable;
  }, [unreachable, queryClient]);
  if (!wanted) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="server-unreachable"
      title={t('common.unreachable.title')}
      description={t('common.unreachable.description')}
      action={
        <Button icon={<ReloadOutlined />} loading={revalidator.state === 'loading'} onClick={() => void revalidator.revalidate()} data-testid="server-unreachable-retry">
          {t('common.retry')}
        </Button>
      }
      data-testid="server-unreachable"
    />
  );
}
