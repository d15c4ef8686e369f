// The contract between the service worker's push handlers and the page
// (web push for the browser notification channel).

import { sameSitePath } from '../../common/same-site-path';

export const NOTIFICATION_CLICKED = 'notifications:clicked';
export const PUSH_RENEWED = 'notifications:push-renewed';

export interface PushPayload {
  id: string;
  title: string;
  body: string;
  icon?: string;
  url: string;
  tag?: string;
  /** The user's unread count when the push was sent: the installed app's badge. */
  unreadCount?: number;
}

/** The server's payload (modules/notifications/notifier.ts), or null for anything else. */
export function parsePushPayload(text: string | null): PushPayload | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PushPayload>;
    if (typeof value.id !== 'string' || typeof value.title !== 'string') return null;
    return {
      id: value.id,
      title: value.title,
      body: typeof value.body === 'string' ? value.body : '',
      icon: typeof value.icon === 'string' ? value.icon : undefined,
      url: typeof value.url === 'string' ? value.url : '/',
      tag: typeof value.tag === 'string' ? value.tag : value.id,
      ...(isCount(value.unreadCount) ? { unreadCount: value.unreadCount } : {}),
    };
  } catch {
    return null;
  }
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The Badging API, where the browser has it (installed apps in Chromium); a page or a worker's navigator. */
export interface BadgeNavigator {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/**
 * Shows the unread count on the installed app's icon, or clears it at zero.
 * Without the API, or when the browser refuses (not installed, no
 * permission), nothing happens: the bell in the page still shows the count.
 */
export async function showUnreadBadge(navigator: BadgeNavigator, count: number): Promise<void> {
  try {
    if (count > 0) await navigator.setAppBadge?.(count);
    else await navigator.clearAppBadge?.();
  } catch {
    // A refused badge is not worth a toast.
  }
}

/** Where a click goes: a path of this app, or an https address; never a script. */
export function targetUrl(url: string, origin: string): string {
  const path = sameSitePath(url);
  if (path !== null) return new URL(path, origin).toString();
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.toString() : new URL('/notifications', origin).toString();
  } catch {
    return new URL('/notifications', origin).toString();
  }
}
