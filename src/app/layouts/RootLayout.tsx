import { useEffect } from 'react';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { Outlet, useHref, useNavigate } from 'react-router-dom';
import type { NavigateOptions } from 'react-router-dom';
import { useAppearanceBridge } from '../../features/appearance/use-appearance-bridge';
import { useCustomCode } from '../../features/appearance/use-custom-code';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { useVerifiedNotice } from '../../features/auth/use-verified-notice';
import { VerifyEmailPage } from '../../features/auth/VerifyEmailPage';
import { useBootstrap, useBootstrapQuery } from '../../features/bootstrap/store';
import { CookieNotice } from '../../features/cookie-notice/CookieNotice';
import { ImpersonationBanner } from '../../features/admin/ImpersonationBanner';
import { useApplyActiveTheme } from '../../features/themes/use-theme';
import { useInstalledApp } from '../../features/pwa/use-installed-app';
import { translate } from '../../i18n/i18n';
import { NavigationProgress } from '../../ui/NavigationProgress';
import { OfflineIndicator } from '../../ui/OfflineIndicator';
import { Spinner } from '../../ui/Spinner';
import { Toaster } from '../../ui/toast/Toaster';
import { UpdatePrompt } from '../../ui/UpdatePrompt';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/** Waits for the bootstrap data (from the persisted cache or the network). */
export function RootLayout() {
  const { data, isError, refetch } = useBootstrapQuery();
  return (
    <>
      <OfflineIndicator />
      <NavigationProgress />
      {data ? (
        <Shell />
      ) : isError ? (
        <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-4 text-center">
          <p>{translate('There was an issue. Please try again.')}</p>
          <button type="button" onClick={() => void refetch()} className="rounded bg-primary px-4 py-2 text-on-primary">
            {translate('Retry')}
          </button>
        </main>
      ) : (
        <Spinner />
      )}
    </>
  );
}

function Shell() {
  const data = useBootstrap();
  const navigate = useNavigate();
  useApplyActiveTheme();
  useAppearanceBridge();
  useCustomCode();
  useDocumentBranding();
  useVerifiedNotice();
  useInstalledApp();
  const { user, settings } = data;
  const mustVerify = !!user && settings.require_email_confirmation && !user.email_verified_at;

  return (
    // Lets react-aria links and menu items navigate through the router.
    <AriaRouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
      <ImpersonationBanner />
      {mustVerify ? (
        <AuthLayout>
          <VerifyEmailPage user={user} />
        </AuthLayout>
      ) : (
        <Outlet />
      )}
      <CookieNotice />
      <Toaster />
      <UpdatePrompt />
    </AriaRouterProvider>
  );
}

function useDocumentBranding() {
  const { branding } = useBootstrap();
  useEffect(() => {
    if (branding.site_name) document.title = branding.site_name;
    if (branding.favicon) {
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (link) link.href = branding.favicon;
    }
  }, [branding.site_name, branding.favicon]);
}
