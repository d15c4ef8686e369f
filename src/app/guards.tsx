import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { useBootstrap } from '../features/bootstrap/store';
import { hasPermission } from '../features/bootstrap/permissions';
import { getLandingPath, safeRedirectTarget } from './landing';
import { NotFoundPage } from './pages/NotFoundPage';

/**
 * Sends the visitor to /login, keeping where they wanted to go. A signed-in
 * user who lacks a permission keeps no target: /login would send them straight
 * back to it (GuestOnly honours ?redirect=), a loop.
 */
function ToLogin() {
  const location = useLocation();
  const { user } = useBootstrap();
  if (user) return <Navigate to="/login" replace />;
  const target = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to={`/login?redirect=${encodeURIComponent(target)}`} replace />;
}

export function RequireAuth() {
  const { user } = useBootstrap();
  return user ? <Outlet /> : <ToLogin />;
}

/** Spec §2: lacking the permission also goes to /login. */
export function RequirePermission({ permission }: { permission: string }) {
  const data = useBootstrap();
  return data.user && hasPermission(data, permission) ? <Outlet /> : <ToLogin />;
}

/** A signed-in visitor goes on to the link's own target (an invite link carries one), else the landing path. */
export function GuestOnly() {
  const { user } = useBootstrap();
  const [params] = useSearchParams();
  return user ? <Navigate to={safeRedirectTarget(params.get('redirect')) ?? getLandingPath(user)} replace /> : <Outlet />;
}

/** Notification screens exist only when the feature is integrated. */
export function RequireNotifications() {
  const data = useBootstrap();
  if (!data.notifications.integrated) return <NotFoundPage />;
  return data.user ? <Outlet /> : <ToLogin />;
}

export function RequireApiDocs() {
  const data = useBootstrap();
  if (!data.settings.api.integrated) return <NotFoundPage />;
  return data.user && hasPermission(data, 'api.access') ? <Outlet /> : <ToLogin />;
}
