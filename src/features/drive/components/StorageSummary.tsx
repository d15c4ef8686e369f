import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import { useCurrentWorkspace } from '../../workspaces/api/queries';
import { useSpaceUsage } from '../api';
import { formatBytes, storagePercentage } from '../../../i18n/format-size';

/** Spec §3 Storage summary: ':used of :available used' and a bar (0% when unlimited). */
export function StorageSummary() {
  const { t } = useTrans();
  const usage = useSpaceUsage();
  const workspace = useCurrentWorkspace();
  if (!usage.data) return null;
  const { used, available } = usage.data;
  const percent = storagePercentage(used, available);
  const text = t(':used of :available used', { used: formatBytes(used), available: available === null ? t('Unlimited') : formatBytes(available) });
  return (
    <div data-testid="storage-summary" className="flex items-start gap-3 px-3 py-2 text-sm">
      <Icon name="database" className="mt-0.5 size-5 text-fg-muted" />
      <div className="flex-1">
        <div
          role="meter"
          aria-label={workspace ? t('Storage of :workspace', { workspace: workspace.name }) : t('Storage')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={text}
          className="mb-1 h-1.5 overflow-hidden rounded bg-fg/10"
        >
          <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
        </div>
        {workspace && <p className="truncate font-medium">{workspace.name}</p>}
        <span className="text-fg-muted">{text}</span>
        {available !== null && used > available && (
          // A downgrade never deletes files: say why uploads wait (issue 16).
          <p role="status" className="mt-1 text-xs text-danger">
            {t('You use more space than your plan gives. Your files are safe, but uploads wait until you delete some files or upgrade.')}
          </p>
        )}
      </div>
    </div>
  );
}
