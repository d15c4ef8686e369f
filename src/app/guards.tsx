import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { useBootstrap, useBootstrapUnconfirmed } from '../features/bootstrap/store';
import { hasPermission } from '../features/bootstrap/permissions';
import { getLandingPath, safeRedirectTarget } from './landing';
import { NotFoundPage } from './pages/NotFoundPage';
import { Spinner } from '../ui/Spinner';

// A guard redirects on the server's word, not on the device's copy of the bootstrap data while that word is on
// its way: a redirect decided on the copy (a session that has ended since) lands after the answer, once its
// screen's code is in, and takes away the page the answer left (the sign-in form, with what was typed into it).

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

/** To /login, once the server has said so (the device's copy may be of a session that has begun since). */
function ToLoginWhenAnswered() {
  return useBootstrapUnconfirmed() ? <Spinner /> : <ToLogin />;
}

export function RequireAuth() {
  const { user } = useBootstrap();
  return user ? <Outlet /> : <ToLoginWhenAnswered />;
}

/** Spec §2: lacking the permission also goes to /login. */
export function RequirePermission({ permission }: { permission: string }) {
  const data = useBootstrap();
  return data.user && hasPermission(data, permission) ? <Outlet /> : <ToLoginWhenAnswered />;
}

/**
 * A signed-in visitor goes on to the link's own target (an invite link carries one), else the landing path. While
 * the device's copy alone says signed in, the page asked for shows: a session that has ended keeps its sign-in form.
 */
export function GuestOnly() {
  const { user } = useBootstrap();
  const unconfirmed = useBootstrapUnconfirmed();
  const [params] = useSearchParams();
  return user && !unconfirmed ? <Navigate to={safeRedirectTarget(params.get('redirect')) ?? getLandingPath(user)} replace /> : <Outlet />;
}

/** Notification screens exist only when the feature is integrated. */
export function RequireNotifications() {
  const data = useBootstrap();
  if (!data.notifications.integrated) return <NotFoundPage />;
  return data.user ? <Outlet /> : <ToLoginWhenAnswered />;
}

export function RequireApiDocs() {
  const data = useBootstrap();
  if (!data.settings.api.integrated) return <NotFoundPage />;
  return data.user && hasPermission(data, 'api.access') ? <Outlet /> : <ToLoginWhenAnswered />;
}
