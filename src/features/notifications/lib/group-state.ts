import type { Channel, Channels, Selection } from '../api/types';

// The preferences page's group checkboxes (spec §2): one per channel per
// group, set when every entry has the channel, clear when none has it, and
// indeterminate in between; toggling it sets or clears the channel for all.

export type GroupState = 'all' | 'none' | 'some';

export function groupState(selections: readonly Selection[], notifIds: readonly string[], channel: Channel): GroupState {
  const values = notifIds.map((id) => selections.find((s) => s.notif_id === id)?.channels[channel] ?? false);
  if (values.every(Boolean)) return 'all';
  return values.some(Boolean) ? 'some' : 'none';
}

export function setChannel(selections: readonly Selection[], notifIds: readonly string[], channel: Channel, on: boolean): Selection[] {
  const ids = new Set(notifIds);
  return selections.map((s) => (ids.has(s.notif_id) ? { ...s, channels: { ...s.channels, [channel]: on } as Channels } : s));
}

/** A group checkbox toggles to all-on unless everything is already on. */
export const nextGroupValue = (state: GroupState): boolean => state !== 'all';

/**
 * The choices to show before any edit: the server's, except that the browser channel
 * reads off while this browser has not granted permission (issue 32.7). The
 * server's default is on, but nothing can arrive until the browser is asked.
 */
export function shownSelections(server: readonly Selection[], browserGranted: boolean): Selection[] {
  if (browserGranted) return [...server];
  return setChannel(
    server,
    server.map((s) => s.notif_id),
    'browser',
    false,
  );
}

export function browserPermissionGranted(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}
