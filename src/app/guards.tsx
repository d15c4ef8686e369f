import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useBootstrap } from '../features/bootstrap/store';
import { hasPermission } from '../features/bootstrap/permissions';
import { getLandingPath } from './landing';
import { NotFoundPage } from './pages/NotFoundPage';

/** Sends the visitor to /login, keeping where they wanted to go. */
function ToLogin() {
  const location = useLocation();
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

export function GuestOnly() {
  const { user } = useBootstrap();
  return user ? <Navigate to={getLandingPath(user)} replace /> : <Outlet />;
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
