import { CheckOutlined, WarningOutlined } from '@ant-design/icons';
import { normalizeLang, type NoticeDto, type NoticesDto } from '@resi/contract';
import { Button, Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState, type QueryLike } from '@/components/query-state';
import { BREAKPOINT, useMediaQuery } from '@/hooks/use-media-query';
import { formatDateTime } from '@/lib/format';
import { useMarkNoticesRead } from '../api/mark-notices-read';
import { noticeText } from './notice-text';

interface Props {
  open: boolean;
  /** The bell's own query: the list and the count come from one request. */
  notices: QueryLike<NoticesDto>;
  onClose: () => void;
}

/** The notices, newest first as the server lists them; unread ones marked, each with "Mark read", and "Mark all read". */
export function NoticesDrawer({ open, notices, onClose }: Props) {
  const { t } = useTranslation();
  const wide = useMediaQuery(BREAKPOINT.md);
  const mark = useMarkNoticesRead();
  const unreadIds = (notices.data?.items ?? []).filter((n) => n.readAt === null).map((n) => n.id);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={wide ? 420 : '100%'}
      title={t('alerts.notices.title')}
      closable={{ placement: 'end' }}
      extra={
        unreadIds.length > 0 ? (
          <Button size="small" icon={<CheckOutlined />} loading={mark.isPending} onClick={() => mark.mutate(unreadIds)} data-testid="notices-read-all">
            {t('alerts.notices.markAllRead')}
          </Button>
        ) : null
      }
      data-testid="notices-drawer"
    >
      <QueryState query={notices} errorTitle={t('alerts.notices.loadFailed')}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="muted" data-testid="notices-empty">
              {t('alerts.notices.empty')}
            </p>
          ) : (
            <ul className="notices-list" data-testid="notices-list">
              {data.items.map((notice) => (
                <NoticeItem key={notice.id} notice={notice} marking={mark.isPending} onRead={() => mark.mutate([notice.id])} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </Drawer>
  );
}

function NoticeItem({ notice, marking, onRead }: { notice: NoticeDto; marking: boolean; onRead: () => void }) {
  const { t, i18n } = useTranslation();
  const unread = notice.readAt === null;
  const severe = notice.kind === 'balance.empty' || (notice.kind === 'account.cap' && notice.threshold >= 100);
  return (
    <li className={unread ? 'notice notice--unread' : 'notice'} data-testid="notice" data-unread={unread}>
      <WarningOutlined className={severe ? 'notice__icon notice__icon--severe' : 'notice__icon'} />
      <div className="notice__body">
        <div className="notice__text" data-testid="notice-text">
          {noticeText(notice, t, normalizeLang(i18n.language))}
        </div>
        <div className="notice__meta">
          <span className="muted">{formatDateTime(notice.createdAt)}</span>
          {unread ? (
            <>
              <Tag color="blue">{t('alerts.notices.new')}</Tag>
              <Button type="link" size="small" className="notice__read" disabled={marking} onClick={onRead} data-testid="notice-read">
                {t('alerts.notices.markRead')}
              </Button>
            </>
          ) : null}
        </div>
      </div>
    </li>
  );
}
