import type { UserWithAccess } from './repository.js';

/** The wire shape of a user (spec §3 User). Secrets such as the password hash never leave. */
export function presentUser(user: UserWithAccess, extra: { unreadNotifications?: number; subscriptions?: { id: number; valid: boolean }[] } = {}) {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: displayName(user),
    avatar: user.avatar,
    email: user.email,
    email2: user.email2,
    company: user.company,
    designation: user.designation,
    mobile: user.mobile,
    address: user.address,
    city: user.city,
    country: user.country,
    zipcode: user.zipcode,
    language: user.language,
    timezone: user.timezone,
    unread_notifications_count: extra.unreadNotifications ?? 0,
    email_verified_at: user.email_verified_at,
    created_at: user.created_at,
    updated_at: user.updated_at,
    permissions: user.permissions,
    roles: user.roles,
    subscriptions: extra.subscriptions ?? [],
  };
}

export type PresentedUser = ReturnType<typeof presentUser>;

export function displayName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  // Written out rather than filter/join/split: a listing asks it of every row (issue 38 §3).
  const { first_name: first, last_name: last } = user;
  const name = (first && last ? `${first} ${last}` : first || last || '').trim();
  if (name) return name;
  const at = user.email.indexOf('@');
  return at < 0 ? user.email : user.email.slice(0, at);
}
