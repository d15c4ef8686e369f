import type { RouteObject } from 'react-router-dom';
import { AuthLayout } from '../features/auth/AuthLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { GuestOnly, RequireApiDocs, RequireAuth, RequireNotifications, RequirePermission } from './guards';
import { AppLayout } from './layouts/AppLayout';
import { RootLayout } from './layouts/RootLayout';
import { MarketingRedirect } from './pages/MarketingRedirect';
import { NotFoundPage } from './pages/NotFoundPage';
import { PlaceholderPage } from './pages/PlaceholderPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { Spinner } from '../ui/Spinner';

const placeholder = (path: string, name: string): RouteObject => ({ path, element: <PlaceholderPage name={name} /> });

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
              { path: 'login', element: <LoginPage /> },
              { path: 'workspace/join/login', element: <LoginPage /> },
              placeholder('register', 'Registration'),
              placeholder('workspace/join/register', 'Registration'),
              placeholder('forgot-password', 'Forgot password'),
              placeholder('password/reset/:token', 'Reset password'),
            ],
          },
        ],
      },
      {
        element: <AppLayout />,
        children: [
          placeholder('pricing', 'Pricing'),
          placeholder('pages/:pageSlug', 'Custom page'),
          {
            element: <RequireAuth />,
            children: [
              placeholder('account-settings', 'Account settings'),
              placeholder('doc/:entryId', 'Document editor'),
              placeholder('checkout/*', 'Checkout'),
              placeholder('billing/*', 'Billing'),
              {
                path: 'drive/*',
                lazy: () => import('../features/drive/DriveRoutes').then((m) => ({ Component: m.default })),
              },
              {
                element: <RequireNotifications />,
                children: [placeholder('notifications', 'Notifications'), placeholder('notifications/settings', 'Notification preferences')],
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
          { element: <RequireApiDocs />, children: [placeholder('api-docs', 'API documentation')] },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
