import { useAtom, useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { useIsMobile } from '../../ui/use-media-query';
import { useBootstrap } from '../bootstrap/store';
import { LanguageSwitcher } from '../locale/LanguageSwitcher';
import { ThemeToggle } from '../themes/ThemeToggle';
import { AiOfferingPopup } from './AiOfferingPopup';
import { Logo } from './Logo';
import { MobileMenu } from './MobileMenu';
import { NavbarLinks } from './NavbarLinks';
import { NotificationBell } from '../notifications/components/NotificationBell';
import { sidebarOpenAtom, sidebarsShownAtom } from './sidebar-state';
import { UserMenu } from './UserMenu';

export function Navbar() {
  const data = useBootstrap();
  const { t } = useTrans();
  const isMobile = useIsMobile();
  const [sidebarOpen, setSidebarOpen] = useAtom(sidebarOpenAtom);
  const hasSidebar = useAtomValue(sidebarsShownAtom) > 0;
  const { user } = data;

  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-1 border-b border-divider bg-bg-alt px-2 md:px-4">
      {/* One menu button: the page's sidebar toggle where there is a sidebar (it carries the menu's
          links on mobile), else the mobile menu. */}
      {hasSidebar ? (
        <IconButton label={t('Toggle sidebar')} aria-expanded={sidebarOpen} onPress={() => setSidebarOpen((v) => !v)}>
          <Icon name="menu" />
        </IconButton>
      ) : (
        isMobile && <MobileMenu />
      )}
      <Logo className="mr-4" />
      {/* Pushes the controls right whether or not there are links to show. */}
      {isMobile ? (
        <span className="mr-auto" />
      ) : (
        <span className="mr-auto flex">
          <NavbarLinks />
        </span>
      )}
      <AiOfferingPopup />
      <LanguageSwitcher compact={isMobile} />
      <ThemeToggle />
      {user ? (
        <>
          {data.notifications.integrated && <NotificationBell user={user} />}
          <UserMenu user={user} />
        </>
      ) : (
        <nav aria-label={t('Account')} className="flex items-center gap-2">
          <Link
            to="/login"
            className="rounded px-3 py-1.5 text-sm font-semibold text-primary hover:bg-primary/10 focus-visible:outline-2 focus-visible:outline-primary"
          >
            {t('Login')}
          </Link>
          {!data.settings.registration.disable && (
            <Link
              to="/register"
              className="rounded bg-primary px-3 py-1.5 text-sm font-semibold text-on-primary hover:bg-primary-dark focus-visible:outline-2 focus-visible:outline-primary"
            >
              {t('Register')}
            </Link>
          )}
        </nav>
      )}
    </header>
  );
}
