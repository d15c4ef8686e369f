/**
 * The one place that answers "may they?" (spec §6). A user — or, when nobody
 * is signed in, the guest role — has a permission if it is listed; `admin`
 * grants everything. Restriction values are read per permission.
 */
export type RestrictionValue = string | number | boolean | null;

export interface Restriction {
  name: string;
  value: RestrictionValue;
}

export interface Permission {
  name: string;
  restrictions: Restriction[];
}

export interface PermissionHolder {
  permissions: Permission[];
}

export const ADMIN_PERMISSION = 'admin';

export function can(holder: PermissionHolder | null | undefined, permission: string): boolean {
  if (!holder) return false;
  return holder.permissions.some((p) => p.name === ADMIN_PERMISSION || p.name === permission);
}

/** The restriction's value, or undefined when the permission or the restriction is absent. */
export function restriction(holder: PermissionHolder | null | undefined, permission: string, name: string): RestrictionValue | undefined {
  const found = holder?.permissions.find((p) => p.name === permission);
  return found?.restrictions.find((r) => r.name === name)?.value;
}

/** Who is asking: a signed-in user's permissions, else the guest role's. */
export function effectiveHolder(user: PermissionHolder | null, guestRole: PermissionHolder): PermissionHolder {
  return user ?? guestRole;
}
