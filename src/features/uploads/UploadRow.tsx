import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { formatBytes } from '../../i18n/format-size';
import { useOnline } from '../../ui/use-online';
import type { ConflictChoice, UploadItem } from '../../offline/queues/uploads/types';

interface UploadRowProps {
  item: UploadItem;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onResolve: (id: string, choice: ConflictChoice) => void;
}

/** One file: name, size, percentage, bytes, status or error, cancel and retry. */
export function UploadRow({ item, onCancel, onRetry, onResolve }: UploadRowProps) {
  const online = useOnline();
  const { t } = useTrans();
  const queued = item.status === 'pending' || item.status === 'inProgress';
  const canCancel = queued || item.status === 'failed';
  // A taken name is answered with a choice, not a retry (the same question would come back).
  const asking = item.status === 'failed' && item.nameTaken === true;
  const canRetry = !asking && item.retryable && (item.status === 'failed' || item.status === 'aborted');
  return (
    <li className="flex items-center gap-3 px-4 py-2" data-upload-status={item.status} aria-label={item.name}>
      <div className="min-w-0 flex-1">
        <div className="truncate text-sm font-medium" title={item.relativePath ?? item.name}>
          {item.name}
        </div>
        <div className={`truncate text-xs ${item.status === 'failed' ? 'text-danger' : 'text-fg-muted'}`}>{statusLine(item, t, online)}</div>
        {queued && (
          <div
            role="progressbar"
            aria-label={item.name}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.percentage}
            className="mt-1 h-1 overflow-hidden rounded bg-divider"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${item.percentage}%` }} />
          </div>
        )}
      </div>
      {item.status === 'completed' && <Icon name="check" className="size-5 text-positive" aria-hidden="true" />}
      {asking && (
        <div className="flex shrink-0 gap-1 text-xs" role="group" aria-label={t('A file with this name is already here')}>
          <button type="button" className="rounded px-2 py-1 font-medium text-primary hover:bg-primary/10" onClick={() => onResolve(item.id, 'replace')}>
            {t('Replace')}
          </button>
          <button type="button" className="rounded px-2 py-1 font-medium text-primary hover:bg-primary/10" onClick={() => onResolve(item.id, 'rename')}>
            {t('Keep both')}
          </button>
        </div>
      )}
      {canRetry && (
        <IconButton label={t('Retry upload')} className="size-8" onPress={() => onRetry(item.id)}>
          <Icon name="restore" className="size-5" />
        </IconButton>
      )}
      {canCancel && (
        <IconButton label={t('Cancel upload')} className="size-8" onPress={() => onCancel(item.id)}>
          <Icon name="close" className="size-5" />
        </IconButton>
      )}
    </li>
  );
}

function statusLine(item: UploadItem, t: ReturnType<typeof useTrans>['t'], online: boolean): string {
  const size = formatBytes(item.size);
  switch (item.status) {
    case 'inProgress':
      return `${item.percentage}% · ${t(':uploaded of :total', { uploaded: formatBytes(item.bytesUploaded), total: size })}`;
    case 'pending':
      // Offline, a queued file is waiting for the network whether or not the worker has tried it yet.
      return item.waitingForNetwork || !online ? `${size} · ${t('Waiting for network')}` : `${size} · ${t('Queued')}`;
    case 'completed':
      return size;
    case 'aborted':
      return `${size} · ${t('Canceled')}`;
    case 'failed':
      return item.errorMessage ? t(item.errorMessage, item.errorValues ?? undefined) : t('Upload failed');
  }
}
