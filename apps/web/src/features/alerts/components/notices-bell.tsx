import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotices } from '../api/get-notices';

// The list is fetched when first opened: the layout is in every page's first load (docs/console.md#first-load).
const NoticesDrawer = lazy(() => import('./notices-drawer').then((m) => ({ default: m.NoticesDrawer })));

/** The header's bell: the unread count, polled, and the notices in a drawer (DESIGN §14). */
export function NoticesBell() {
  const { t } = useTranslation();
  const notices = useNotices();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing plays the drawer's animation instead of cutting it.
  const [opened, setOpened] = useState(false);
  const unread = notices.data?.unread ?? 0;
  return (
    <>
      <Button
        type="text"
        className="notices-bell"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        aria-label={unread > 0 ? t('alerts.bell.unread', { count: unread }) : t('alerts.bell.label')}
        data-testid="notices-bell"
      >
        <Badge count={unread} size="small" overflowCount={99} data-testid="notices-unread">
          <BellOutlined className="notices-bell__icon" />
        </Badge>
      </Button>
      {opened ? (
        <Suspense fallback={null}>
          <NoticesDrawer open={open} notices={notices} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
