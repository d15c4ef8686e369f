import { useLocation } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { useBootstrap } from '../bootstrap/store';
import { isMenuItemActive, menuItemsFor } from './menu-items';
import { MenuItemLink } from './MenuItemLink';

/** The 'navbar' menu's items in the top bar on wide screens (phones get the mobile menu instead). */
export function NavbarLinks() {
  const data = useBootstrap();
  const { t } = useTrans();
  const { pathname } = useLocation();
  const items = menuItemsFor(data, 'navbar');
  if (!items.length) return null;
  return (
    <nav aria-label={t('Main')}>
      <ul className="flex items-center gap-1">
        {items.map((item) => (
          <li key={item.id}>
            <MenuItemLink
              item={item}
              isActive={isMenuItemActive(item, pathname)}
              className="rounded px-3 py-1.5 text-sm hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary aria-[current=page]:font-semibold aria-[current=page]:text-primary"
            >
              {t(item.label)}
            </MenuItemLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
