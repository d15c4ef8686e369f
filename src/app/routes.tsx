import type { RouteObject } from 'react-router-dom';
import { AuthLayout } from '../features/auth/AuthLayout';
import { GuestOnly, RequireApiDocs, RequireAuth, RequireNotifications, RequirePermission } from './guards';
import { RootLayout } from './layouts/RootLayout';
import { MarketingRedirect } from './pages/MarketingRedirect';
import { NotFoundPage } from './pages/NotFoundPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { Spinner } from '../ui/Spinner';
import { nextTask } from './tasks';

/**
 * Loads a screen whose react-aria components read the locale after react-aria's i18n module, in a task of its own:
 * that module works the locale out when it is evaluated (Intl.DateTimeFormat.supportedLocalesOf and
 * Intl.Locale#maximize, each loading ICU data: ~15-40 ms, x4 on a slowed phone CPU), which otherwise added to the
 * evaluation of the screen's chunks, one long task. /login's chunks do not have it.
 */
const localeFirst =
  <T,>(load: () => Promise<T>) =>
  () =>
    import('react-aria/I18nProvider').then(nextTask).then(load);

// Screens load on demand (first paint of /login needs neither drive, admin nor account code).
// The app shell too: its navbar pulls notifications, workspaces and IndexedDB (Dexie), none of which
// a guest on /login needs.
const appLayout = localeFirst(() => import('./layouts/AppLayout').then((m) => ({ Component: m.AppLayout })));
const loginPage = () => import('../features/auth/LoginPage').then((m) => ({ Component: m.LoginPage }));
const apiDocsPage = () => import('../features/api-docs/ApiDocsPage').then((m) => ({ Component: m.ApiDocsPage }));
const registerPage = () => import('../features/auth/RegisterPage').then((m) => ({ Component: m.RegisterPage }));

export const MARKETING_PAGES = ['contact', 'offering', 'about', 'features'] as const;

/** The route table of spec §2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <Spinner />,
    children: [
      { index: true, element: <MarketingRedirect page="" /> },
      ...MARKETING_PAGES.map((page) => ({ path: page, element: <MarketingRedirect page={page} /> })),
      {
        element: <AuthLayout />,
        children: [
          {
            element: <GuestOnly />,
            children: [
              { path: 'login', lazy: loginPage },
              { path: 'workspace/join/login', lazy: loginPage },
              { path: 'register', lazy: registerPage },
              { path: 'workspace/join/register', lazy: registerPage },
              { path: 'forgot-password', lazy: () => import('../features/auth/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
              { path: 'password/reset/:token', lazy: () => import('../features/auth/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })) },
            ],
          },
        ],
      },
      // The pricing page has its own marketing top bar and footer (spec §2), so it sits outside the app shell.
      { path: 'pricing', lazy: localeFirst(() => import('../features/pricing/PricingPage').then((m) => ({ Component: m.PricingPage }))) },
      {
        lazy: appLayout,
        children: [
          { path: 'pages/:pageSlug', lazy: () => import('../features/custom-pages/CustomPageScreen').then((m) => ({ Component: m.CustomPageScreen })) },
          // A share link's page: open to guests, so it sits outside the drive's sign-in guard.
          { path: 'drive/s/:token', lazy: () => import('../features/sharing/link-page/SharedLinkPage').then((m) => ({ Component: m.SharedLinkPage })) },
          {
            element: <RequireAuth />,
            children: [
              {
                path: 'account-settings',
                lazy: () => import('../features/account/AccountSettingsPage').then((m) => ({ Component: m.AccountSettingsPage })),
              },
              { path: 'doc/:entryId', lazy: () => import('../features/editor/DocumentPage').then((m) => ({ Component: m.DocumentPage })) },
              { path: 'checkout/:productId/:priceId', lazy: () => import('../features/checkout/CheckoutPage').then((m) => ({ Component: m.CheckoutPage })) },
              {
                path: 'checkout/:productId/:priceId/done',
                lazy: () => import('../features/checkout/CheckoutDonePage').then((m) => ({ Component: m.CheckoutDonePage })),
              },
              { path: 'billing', lazy: () => import('../features/billing/BillingPage').then((m) => ({ Component: m.BillingPage })) },
              {
                path: 'drive/*',
                lazy: localeFirst(() => import('../features/drive/DriveRoutes').then((m) => ({ Component: m.default }))),
              },
              {
                element: <RequireNotifications />,
                children: [
                  {
                    path: 'notifications',
                    lazy: () => import('../features/notifications/NotificationsPage').then((m) => ({ Component: m.NotificationsPage })),
                  },
                  {
                    path: 'notifications/settings',
                    lazy: () => import('../features/notifications/NotificationSettingsPage').then((m) => ({ Component: m.NotificationSettingsPage })),
                  },
                ],
              },
            ],
          },
          {
            element: <RequirePermission permission="admin.access" />,
            children: [
              {
                path: 'admin/*',
                lazy: () => import('../features/admin/AdminRoutes').then((m) => ({ Component: m.default })),
              },
            ],
          },
          { element: <RequireApiDocs />, children: [{ path: 'api-docs', lazy: apiDocsPage }] },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
