import { useParams } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { useTimezone } from '../../../i18n/use-timezone';
import { useWorkspaceActivity } from '../api/activity';
import { activityActor, activityLine } from '../components/ActivityPanel';

/** A workspace's activity page (issue 35): what happened to its files and folders, for its admins. */
export function WorkspaceActivityPage() {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const workspaceId = Number(useParams().workspaceId);
  const activity = useWorkspaceActivity(workspaceId);
  const records = activity.data?.pages.flatMap((page) => page.data) ?? [];
  const format = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(new Date(iso));
  return (
    <section aria-label={t('Workspace activity')} className="flex-1 overflow-y-auto p-4 text-sm">
      <h1 className="mb-4 text-lg font-semibold">{t('Workspace activity')}</h1>
      {activity.isError && (
        <p role="alert" className="text-danger">
          {t(getErrorMessage(activity.error))}
        </p>
      )}
      {activity.isSuccess && records.length === 0 && <p className="text-fg-muted">{t('No activity yet')}</p>}
      <ul className="space-y-3">
        {records.map((record) => (
          <li key={record.id} data-testid="activity-record">
            <div className="font-medium">
              {record.entry_name} · {activityLine(record, t)}
            </div>
            <div className="text-xs text-fg-muted">{[activityActor(record, t), format(record.created_at)].join(' · ')}</div>
          </li>
        ))}
      </ul>
      {activity.hasNextPage && (
        <button type="button" className="mt-3 text-xs underline" onClick={() => void activity.fetchNextPage()}>
          {t('Show more')}
        </button>
      )}
    </section>
  );
}
