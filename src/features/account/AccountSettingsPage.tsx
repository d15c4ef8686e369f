import { useEffect } from 'react';
import { useAtom } from 'jotai';
import { useTrans } from '../../i18n/use-trans';
import { Spinner } from '../../ui/Spinner';
import { useBootstrap } from '../bootstrap/store';
import { hasPermission } from '../bootstrap/permissions';
import { useIsMobile } from '../../ui/use-media-query';
import { MobileMenuLinks } from '../navigation/MobileMenu';
import { SIDEBAR_BREAKPOINT, sidebarOpenAtom, useSidebarShown } from '../navigation/sidebar-state';
import { AccessTokensPanel } from './AccessTokensPanel';
import { useAccountUser } from './api';
import { DangerZoneSection } from './DangerZoneSection';
import { PasswordSection } from './PasswordSection';
import { PreferencesSection } from './PreferencesSection';
import { ProfileSection } from './ProfileSection';
import { SocialAccountsPanel } from './SocialAccountsPanel';
import { TwoFactorSection } from './TwoFactorSection';

const SECTIONS = [
  { id: 'profile', label: 'Update name and profile image' },
  { id: 'password', label: 'Update Password' },
  { id: 'security', label: 'Security' },
  { id: 'preferences', label: 'Date, Time And Language' },
  { id: 'social', label: 'Connected accounts' },
  { id: 'tokens', label: 'API access tokens' },
  { id: 'danger', label: 'Danger Zone' },
] as const;

/** Spec §2 "Account settings page" (/account-settings). */
export function AccountSettingsPage() {
  const { t } = useTrans();
  const data = useBootstrap();
  const account = useAccountUser();
  const [sidebarOpen, setSidebarOpen] = useAtom(sidebarOpenAtom);
  useSidebarShown();
  const isMobile = useIsMobile();
  const canUseApi = hasPermission(data, 'api.access') && data.settings.api.integrated;

  // Spec §9: the sidebar starts hidden on windows narrower than 576 px.
  useEffect(() => {
    setSidebarOpen(window.innerWidth >= SIDEBAR_BREAKPOINT);
  }, [setSidebarOpen]);

  const user = account.data;
  const visible = SECTIONS.filter((s) => (s.id !== 'tokens' || canUseApi) && (s.id !== 'social' || hasSocial(data, user)));

  return (
    <div className="flex">
      {sidebarOpen && (
        <nav
          aria-label={t('Account settings')}
          className="fixed left-0 top-16 z-20 h-[calc(100dvh-4rem)] w-64 shrink-0 overflow-y-auto border-r border-divider bg-bg p-4 sm:sticky"
        >
          <ul className="space-y-1">
            {visible.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="block rounded px-3 py-2 text-sm hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary">
                  {t(section.label)}
                </a>
              </li>
            ))}
          </ul>
          {isMobile && (
            <div className="mt-4 border-t border-divider pt-4">
              <MobileMenuLinks />
            </div>
          )}
        </nav>
      )}
      <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
        <header>
          <h1 className="text-2xl font-semibold">{t('Account settings')}</h1>
          <p className="mt-1 text-fg-muted">{t('View and update your account details, profile and more.')}</p>
        </header>
        {user ? (
          <>
            <ProfileSection user={user} />
            <PasswordSection />
            <TwoFactorSection />
            <PreferencesSection user={user} />
            <SocialAccountsPanel user={user} />
            {canUseApi && <AccessTokensPanel />}
            <DangerZoneSection user={user} />
          </>
        ) : account.isError ? (
          <p role="alert" className="text-danger">
            {t('There was an issue. Please try again.')}
          </p>
        ) : (
          <Spinner />
        )}
      </div>
    </div>
  );
}

function hasSocial(data: ReturnType<typeof useBootstrap>, user: { social_profiles?: unknown[] } | undefined): boolean {
  return data.social.google.enable || data.social.facebook.enable || (user?.social_profiles?.length ?? 0) > 0;
}
