import { useParams } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { useWorkspaceActivity } from '../api/activity';
import { ActivityRecords } from '../components/ActivityPanel';

/** A workspace's activity page (issue 35): what happened to its files and folders, for its admins. */
export function WorkspaceActivityPage() {
  const { t } = useTrans();
  const workspaceId = Number(useParams().workspaceId);
  const activity = useWorkspaceActivity(workspaceId);
  const records = activity.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-label={t('Workspace activity')} className="flex-1 overflow-y-auto p-4 text-sm">
      <h1 className="mb-4 text-lg font-semibold">{t('Workspace activity')}</h1>
      {activity.isError && (
        <p role="alert" className="text-danger">
          {t(getErrorMessage(activity.error))}
        </p>
      )}
      {activity.isSuccess && records.length === 0 && <p className="text-fg-muted">{t('No activity yet')}</p>}
      <ActivityRecords activity={activity} withEntryName />
    </section>
  );
}
