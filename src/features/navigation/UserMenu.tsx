import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import type { User } from '../../api/bootstrap-types';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { useIsMobile } from '../../ui/use-media-query';
import { useBootstrap } from '../bootstrap/store';
import { useLogout } from '../auth/use-logout';
import { isExternalAction, menuItemsFor } from './menu-items';
import { iconForLabel } from './menu-icon';
import { Badge } from '../../ui/Badge';

const itemClass = 'flex cursor-default items-center gap-3 px-4 py-2 text-sm outline-none data-[focused]:bg-fg/10 data-[hovered]:bg-fg/5';

export function UserMenu({ user }: { user: User }) {
  const data = useBootstrap();
  const { t } = useTrans();
  const isMobile = useIsMobile();
  const { logout } = useLogout();
  const extraItems = menuItemsFor(data, 'user-menu');
  const unread = user.unread_notifications_count;
  const notificationsOn = data.notifications.integrated;

  return (
    <MenuTrigger>
      {isMobile ? (
        <Button
          aria-label={t('Account menu')}
          className="relative inline-flex size-10 items-center justify-center rounded-full text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
        >
          <Icon name="person" />
          {notificationsOn && unread > 0 && <Badge count={unread} />}
        </Button>
      ) : (
        <Button
          aria-label={t('Account menu')}
          className="inline-flex items-center gap-2 rounded-full py-1 pl-1 pr-2 hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
        >
          <Avatar user={user} />
          <span className="max-w-40 truncate text-sm">{user.display_name}</span>
          <Icon name="chevronDown" className="size-4" />
        </Button>
      )}
      <Popover placement="bottom end" offset={8} className="z-50 min-w-52 rounded-lg border border-divider bg-paper py-1 text-fg shadow-xl">
        <Menu aria-label={t('Account menu')} className="outline-none">
          {extraItems.map((item) => (
            <MenuItem
              key={item.id}
              id={item.id}
              href={item.action}
              textValue={t(item.label)}
              {...(isExternalAction(item.action) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              className={itemClass}
            >
              <Icon name={iconForLabel(item.label)} className="size-5" />
              {t(item.label)}
            </MenuItem>
          ))}
          {data.settings.auth.profile_link && (
            <MenuItem id="profile" href={data.settings.auth.profile_link} className={itemClass}>
              <Icon name="person" className="size-5" />
              {t('Profile page')}
            </MenuItem>
          )}
          {isMobile && notificationsOn && (
            <MenuItem id="notifications" href="/notifications" textValue={t('Notifications')} className={itemClass}>
              <Icon name="bell" className="size-5" />
              {t('Notifications')}
              {unread > 0 && <span className="ml-auto rounded-full bg-danger px-1.5 text-xs text-white">{unread}</span>}
            </MenuItem>
          )}
          {notificationsOn && data.notifications.subscriptions.integrated && (
            <MenuItem id="notification-settings" href="/notifications/settings" className={itemClass}>
              <Icon name="settings" className="size-5" />
              {t('Notification settings')}
            </MenuItem>
          )}
          <Separator className="my-1 border-t border-divider" />
          <MenuItem id="logout" onAction={logout} className={itemClass}>
            <Icon name="logout" className="size-5" />
            {t('Logout')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function Avatar({ user }: { user: User }) {
  if (user.avatar) return <img src={user.avatar} alt="" className="size-8 rounded-full object-cover" />;
  const initial = (user.display_name ?? user.email ?? '?').charAt(0).toUpperCase();
  return (
    <span aria-hidden="true" className="inline-flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-on-primary">
      {initial}
    </span>
  );
}
