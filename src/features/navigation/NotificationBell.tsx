import { DialogTrigger, Link } from 'react-aria-components';
import type { User } from '../../api/bootstrap-types';
import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { ResponsivePopover } from '../../ui/ResponsivePopover';
import { Badge } from './UserMenu';

/**
 * The bell with its unread badge (fed by user.unread_notifications_count).
 * The list itself belongs to the notifications issue; until then the popover
 * shows the spec's empty message and a link to the full page.
 */
export function NotificationBell({ user }: { user: User }) {
  const { t } = useTrans();
  const unread = user.unread_notifications_count;
  return (
    <DialogTrigger>
      <IconButton label={unread > 0 ? t('Notifications (:count unread)', { count: unread }) : t('Notifications')}>
        <Icon name="bell" />
        {unread > 0 && <Badge count={unread} />}
      </IconButton>
      <ResponsivePopover label={t('Notifications')}>
        <div className="flex items-center justify-between pb-2">
          <h2 className="font-semibold">{t('Notifications')}</h2>
          <Link href="/notifications" className="text-sm text-primary hover:underline focus-visible:outline-2">
            {t('View all')}
          </Link>
        </div>
        <p className="py-6 text-center text-sm text-fg-muted">{t('Notifications will appear here as soon as possible.')}</p>
      </ResponsivePopover>
    </DialogTrigger>
  );
}
