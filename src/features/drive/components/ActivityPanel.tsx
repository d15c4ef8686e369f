import { useTrans } from '../../../i18n/use-trans';
import { useTimezone } from '../../../i18n/use-timezone';
import { useOnline } from '../../../ui/use-online';
import type { FileEntry } from '../api/types';
import { useEntryActivity, type ActivityRecord } from '../api/activity';

type Translate = ReturnType<typeof useTrans>['t'];

/** What happened, as one line (issue 35); the catalogue holds each in English and Turkish. */
export function activityLine(record: ActivityRecord, t: Translate): string {
  const d = record.details;
  const text = (key: string) => String(d[key] ?? '');
  switch (record.action) {
    case 'created':
      return t('Created');
    case 'new-version':
      return t('Uploaded a new version');
    case 'renamed':
      return t('Renamed from :from to :to', { from: text('from'), to: text('to') });
    case 'moved':
      return d.to ? t('Moved to :folder', { folder: text('to') }) : t('Moved to the drive root');
    case 'copied':
      return t('Copied from :name', { name: text('from') });
    case 'trashed':
      return t('Moved to trash');
    case 'restored':
      return t('Restored from trash');
    case 'purged':
      return t('Deleted forever');
    case 'shared':
      return t('Shared with :person', { person: text('with') });
    case 'unshared':
      return t('Stopped sharing with :person', { person: text('with') });
    case 'permission-changed':
      return t('Changed the permission of :person', { person: text('with') });
    case 'link-created':
      return t('Created a share link');
    case 'link-opened':
      return t('Opened through a share link');
    case 'link-downloaded':
      return t('Downloaded through a share link');
    case 'dropped':
      return t(':name was dropped into this folder', { name: text('name') });
    default:
      return record.action;
  }
}

/** Who did it: a person, a link visitor (with their network, never the host), WebDAV or the server. */
export function activityActor(record: ActivityRecord, t: Translate): string {
  const { actor } = record;
  if (actor.kind === 'visitor') return record.address ? t('A link visitor (:address)', { address: record.address }) : t('A link visitor');
  if (actor.kind === 'system') return t('The system');
  const name = actor.name ?? t('Unknown');
  return actor.kind === 'webdav' ? t(':name via WebDAV', { name }) : name;
}

/** The Activity tab of a file's or a folder's details: who did what, newest first (online only). */
export function ActivityPanel({ entry }: { entry: FileEntry }) {
  const { t } = useTrans();
  const online = useOnline();
  const activity = useEntryActivity(online ? entry.id : null);
  const records = activity.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-label={t('Activity')} className="text-sm">
      {!online && <p className="text-xs text-fg-muted">{t('Activity is shown only while online.')}</p>}
      {activity.isSuccess && records.length === 0 && <p className="text-xs text-fg-muted">{t('No activity yet')}</p>}
      <ActivityRecords activity={activity} />
    </section>
  );
}

interface ActivityPages {
  data?: { pages: { data: ActivityRecord[] }[] };
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The records of an entry or a workspace, newest first, with "Show more"; `withEntryName` for lists of many entries. */
export function ActivityRecords({ activity, withEntryName = false }: { activity: ActivityPages; withEntryName?: boolean }) {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const records = activity.data?.pages.flatMap((page) => page.data) ?? [];
  const format = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(new Date(iso));
  return (
    <>
      <ul className="space-y-3">
        {records.map((record) => (
          <li key={record.id} data-testid="activity-record">
            <div className="font-medium">{withEntryName ? `${record.entry_name} · ${activityLine(record, t)}` : activityLine(record, t)}</div>
            <div className="text-xs text-fg-muted">{[activityActor(record, t), format(record.created_at)].join(' · ')}</div>
          </li>
        ))}
      </ul>
      {activity.hasNextPage && (
        <button type="button" className="mt-3 text-xs underline" onClick={() => void activity.fetchNextPage()}>
          {t('Show more')}
        </button>
      )}
    </>
  );
}
