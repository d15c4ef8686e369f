import { Button } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { Spinner } from '../../../ui/Spinner';
import { useMarkAsRead } from '../api/mutations';
import { useNotifications } from '../api/queries';
import { NotificationRow } from './NotificationRow';

/** The list with its 'Mark all as read' (only when unread exist), spinner and empty message (spec §2). */
export function NotificationList({ limit, onOpened }: { limit?: number; onOpened?: () => void }) {
  const { t } = useTrans();
  const list = useNotifications();
  const markAsRead = useMarkAsRead();
  const unreadIds = list.notifications.filter((n) => n.read_at === null).map((n) => n.id);
  const shown = limit ? list.notifications.slice(0, limit) : list.notifications;

  if (list.isLoading) return <Spinner />;
  return (
    <div>
      {unreadIds.length > 0 && (
        <div className="flex justify-end pb-2">
          <Button onPress={() => markAsRead.mutate(unreadIds)} className="text-sm text-primary hover:underline focus-visible:outline-2">
            {t('Mark all as read')}
          </Button>
        </div>
      )}
      {shown.length === 0 ? (
        <p className="py-6 text-center text-sm text-fg-muted">{t('Notifications will appear here as soon as possible.')}</p>
      ) : (
        <ul aria-label={t('Notifications')} className="divide-y divide-divider">
          {shown.map((notification) => (
            <NotificationRow key={notification.id} notification={notification} onOpened={onOpened} />
          ))}
        </ul>
      )}
    </div>
  );
}
