/**
 * The notification types (spec §3): their short ids (BeDrive's), their
 * preference rows, and the data shape the bell, the list, email and web push
 * all render from. Text is plain; it is never rendered as HTML anywhere.
 */
import { sameSitePath } from '../../../common/same-site-path.js';

export const CHANNELS = ['email', 'browser'] as const;
export type Channel = (typeof CHANNELS)[number];
export type ChannelMap = Record<Channel, boolean>;

/** Whether the site sends a channel at all (an admin switch); every channel is on when none is given. */
export type ChannelSwitch = (channel: Channel) => Promise<boolean>;
export const allChannelsOn: ChannelSwitch = async () => true;

export const NOTIFICATION_TYPES = {
  'workspace-invitation': { notifId: 'W01', name: 'Someone invites me to a workspace', defaults: { email: true, browser: true } },
  'file-entry-shared': { notifId: 'A01', name: 'Someone shares a file or folder with me', defaults: { email: true, browser: true } },
  // Receipts (issue 35): sent only for links whose owner asked for them; the bell always shows them.
  'link-downloaded': { notifId: 'L01', name: 'Someone downloads from my link for the first time', defaults: { email: true, browser: true } },
  'file-dropped': { notifId: 'L02', name: 'Someone drops a file into my file-drop folder', defaults: { email: true, browser: true } },
} as const satisfies Record<string, { notifId: string; name: string; defaults: ChannelMap }>;
export type NotificationType = keyof typeof NOTIFICATION_TYPES;

export const PREFERENCE_GROUPS = [
  { group_name: 'Notify me when…', types: ['workspace-invitation', 'file-entry-shared', 'link-downloaded', 'file-dropped'] as NotificationType[] },
];

export const notifIds = (): string[] => Object.values(NOTIFICATION_TYPES).map((t) => t.notifId);

export interface NotificationAction {
  label: string;
  /** A path of this app (or an https URL): never a script. */
  action: string;
}

export interface NotificationLine {
  content: string;
  type?: 'primary' | 'secondary';
  icon?: string;
  action?: NotificationAction;
}

/** Spec §3 Notification data. */
export interface NotificationData {
  image: string;
  lines: NotificationLine[];
  mainAction: NotificationAction;
  buttonActions?: NotificationAction[];
  inviteId?: string;
}

/** An action address is a path of this app or an https URL; anything else (javascript:, data:, //host) is refused. */
export function isSafeAction(action: string): boolean {
  if (sameSitePath(action) !== null) return true;
  try {
    return new URL(action).protocol === 'https:';
  } catch {
    return false;
  }
}

export function assertSafe(data: NotificationData): NotificationData {
  const actions = [data.mainAction, ...(data.buttonActions ?? []), ...data.lines.flatMap((line) => (line.action ? [line.action] : []))];
  const bad = actions.find((a) => !isSafeAction(a.action));
  if (bad) throw new Error(`Unsafe notification action: ${bad.action}`);
  return data;
}
