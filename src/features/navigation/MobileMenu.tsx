import { DialogTrigger } from 'react-aria-components';
import { useLocation } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { useBootstrap } from '../bootstrap/store';
import { isMenuItemActive, menuItemsFor } from './menu-items';
import { iconForLabel } from './menu-icon';
import { MenuItemLink } from './MenuItemLink';

/** The configured 'mobile-menu' items as a list: in the menu drawer, or inside a page's sidebar on mobile. */
export function MobileMenuLinks({ onNavigate }: { onNavigate?: () => void } = {}) {
  const data = useBootstrap();
  const { t } = useTrans();
  const { pathname } = useLocation();
  const items = menuItemsFor(data, 'mobile-menu');
  if (!items.length) return null;
  return (
    <nav aria-label={t('Menu')}>
      <ul className="space-y-1">
        {items.map((item) => {
          const active = isMenuItemActive(item, pathname);
          return (
            <li key={item.id} onClick={onNavigate}>
              <MenuItemLink
                item={item}
                isActive={active}
                className={`flex items-center gap-3 rounded px-3 py-2 text-sm hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary ${
                  active ? 'bg-primary/10 font-semibold text-primary' : ''
                }`}
              >
                <Icon name={iconForLabel(item.label)} className="size-5" />
                {t(item.label)}
              </MenuItemLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The configured 'mobile-menu' items in a modal drawer (pages without a sidebar). */
export function MobileMenu() {
  const data = useBootstrap();
  const { t } = useTrans();
  if (!menuItemsFor(data, 'mobile-menu').length) return null;
  return (
    <DialogTrigger>
      <IconButton label={t('Open menu')}>
        <Icon name="menu" />
      </IconButton>
      <ModalDialog title={t('Menu')}>
        <MobileMenuLinks />
      </ModalDialog>
    </DialogTrigger>
  );
}
