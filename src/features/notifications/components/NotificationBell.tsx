import { DialogTrigger, Link } from 'react-aria-components';
import type { User } from '../../../api/bootstrap-types';
import { useTrans } from '../../../i18n/use-trans';
import { Badge } from '../../../ui/Badge';
import { IconButton } from '../../../ui/IconButton';
import { Icon } from '../../../ui/icons';
import { ResponsivePopover } from '../../../ui/ResponsivePopover';
import { useNotificationSync } from '../hooks/use-notification-sync';
import { NotificationList } from './NotificationList';

/** Spec §2: the bell with its unread badge and a popover of the newest notifications (a modal on mobile). */
export function NotificationBell({ user }: { user: User }) {
  const { t } = useTrans();
  useNotificationSync();
  const unread = user.unread_notifications_count;
  return (
    <DialogTrigger>
      <IconButton label={unread > 0 ? t('Notifications (:count unread)', { count: unread }) : t('Notifications')}>
        <Icon name="bell" />
        {unread > 0 && <Badge count={unread} />}
      </IconButton>
      <ResponsivePopover label={t('Notifications')} className="w-96 max-w-[calc(100vw-2rem)] p-4">
        <div className="flex items-center justify-between pb-2">
          <h2 className="font-semibold">{t('Notifications')}</h2>
          <Link href="/notifications" className="text-sm text-primary hover:underline focus-visible:outline-2">
            {t('View all')}
          </Link>
        </div>
        <div className="max-h-[60vh] overflow-auto">
          <NotificationList limit={10} />
        </div>
      </ResponsivePopover>
    </DialogTrigger>
  );
}
