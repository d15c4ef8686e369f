import { useLocation } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { useBootstrap } from '../bootstrap/store';
import { isMenuItemActive, menuItemsFor } from './menu-items';
import { MenuItemLink } from './MenuItemLink';

export const COPYRIGHT_YEARS = '2023-2025';

export function Footer() {
  const data = useBootstrap();
  const { t } = useTrans();
  const { pathname } = useLocation();
  const items = menuItemsFor(data, 'footer');
  return (
    <footer className="flex flex-col items-center justify-between gap-2 border-t border-divider px-4 py-3 text-sm text-fg-muted md:flex-row">
      <p>
        {t('Copyright')} © {COPYRIGHT_YEARS} {data.branding.site_name}
      </p>
      {items.length > 0 && (
        <nav aria-label={t('Footer')}>
          <ul className="flex flex-wrap gap-4">
            {items.map((item) => (
              <li key={item.id}>
                <MenuItemLink
                  item={item}
                  isActive={isMenuItemActive(item, pathname)}
                  className="hover:underline focus-visible:outline-2 aria-[current=page]:text-primary"
                >
                  {t(item.label)}
                </MenuItemLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </footer>
  );
}
