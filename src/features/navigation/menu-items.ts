import type { Bootstrap, MenuItem } from '../../api/bootstrap-types';
import { sameSitePath } from '../../../common/same-site-path';
import { hasPermission } from '../bootstrap/permissions';

type Viewer = Pick<Bootstrap, 'user' | 'guest_role'>;

/** Spec §6: shown only with an action, every listed role and every listed permission. */
export function filterMenuItems(items: MenuItem[], viewer: Viewer): MenuItem[] {
  const roleIds = new Set(viewer.user?.roles.map((r) => r.id) ?? []);
  return items.filter((item) => !!item.action && item.roles.every((id) => roleIds.has(id)) && item.permissions.every((name) => hasPermission(viewer, name)));
}

export function menuItemsFor(data: Pick<Bootstrap, 'menus' | 'user' | 'guest_role'>, position: string): MenuItem[] {
  const items = data.menus.filter((m) => m.positions.includes(position)).flatMap((m) => m.items);
  // Internal items are routed by the cleaned path: the router would otherwise keep a tab the browser then drops.
  return filterMenuItems(items, data).map((item) => ({ ...item, action: sameSitePath(item.action) ?? item.action }));
}

/** Anything but a path of this app, as a browser reads it (https:, mailto:, `/<TAB>/host`), leaves the app in a new tab. */
export function isExternalAction(action: string): boolean {
  return sameSitePath(action) === null;
}

function lastSegment(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? '';
  const parts = clean.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/** The item whose last path segment matches the address's last segment is active. */
export function isMenuItemActive(item: Pick<MenuItem, 'action'>, pathname: string): boolean {
  if (isExternalAction(item.action)) return false;
  return lastSegment(item.action) === lastSegment(pathname);
}
