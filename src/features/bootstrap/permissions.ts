import type { Bootstrap, Permission, User } from '../../api/bootstrap-types';

// Spec §6: a user (or the guest role when signed out) has a permission when
// it is listed; 'admin' grants everything.

export function permissionsOf(data: Pick<Bootstrap, 'user' | 'guest_role'>): Permission[] {
  return data.user ? data.user.permissions : data.guest_role.permissions;
}

export function hasPermission(data: Pick<Bootstrap, 'user' | 'guest_role'>, name: string): boolean {
  const permissions = permissionsOf(data);
  return permissions.some((p) => p.name === 'admin' || p.name === name);
}

export function getRestriction(
  data: Pick<Bootstrap, 'user' | 'guest_role'>,
  permission: string,
  restriction: string,
): string | number | boolean | null | undefined {
  return permissionsOf(data)
    .find((p) => p.name === permission)
    ?.restrictions.find((r) => r.name === restriction)?.value;
}

export function isSubscribed(user: User | null): boolean {
  return !!user?.subscriptions.some((s) => s.valid);
}
