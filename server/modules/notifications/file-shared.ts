import type { Notifier } from './notifier.js';

export interface SharedNotice {
  userId: number;
  sharerName: string;
  entries: { name: string }[];
}

/** Spec §3 file-entry-shared: sent by sharing with people; opens "Shared with me". */
export function fileEntryShared(notifier: Notifier, notice: SharedNotice): Promise<string | null> {
  const [first] = notice.entries;
  return notifier.notify(notice.userId, 'file-entry-shared', (t) => ({
    image: 'people',
    lines: [
      {
        content:
          notice.entries.length === 1 && first
            ? t(':sharer shared :name with you', { sharer: notice.sharerName, name: first.name })
            : t(':sharer shared :count items with you', { sharer: notice.sharerName, count: notice.entries.length }),
        type: 'primary',
      },
    ],
    mainAction: { label: t('Open'), action: '/drive/shares' },
  }));
}
