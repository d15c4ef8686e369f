import { useState } from 'react';
import { translate } from '../../i18n/i18n';
import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { UploadRow } from './UploadRow';
import { summarize } from './upload-summary';
import { useRefreshOnUploadCompleted, useUploadQueue } from './use-upload-queue';

/**
 * The upload queue, bottom right and collapsible. It shows itself while the
 * user has uploads, and a finished list can be closed (which clears it).
 */
export function UploadPanel() {
  const { t } = useTrans();
  const { items, cancel, retry, clearCompleted } = useUploadQueue();
  useRefreshOnUploadCompleted();
  const [collapsed, setCollapsed] = useState(false);
  if (!items.length) return null;
  const summary = summarize(items);
  const title = translate(summary.key, { count: summary.count, defaultValue: summary.fallback });
  return (
    <section
      aria-label={t('Uploads')}
      className="fixed bottom-4 right-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-lg border border-divider bg-paper text-fg shadow-xl"
    >
      <header className="flex items-center gap-2 bg-bg-alt py-1 pl-4 pr-1">
        <h2 className="flex-1 truncate text-sm font-semibold" aria-live="polite">
          {title}
          {summary.active > 0 && <span className="ml-2 font-normal text-fg-muted">{summary.percentage}%</span>}
        </h2>
        <IconButton label={collapsed ? t('Expand') : t('Collapse')} aria-expanded={!collapsed} onPress={() => setCollapsed((c) => !c)}>
          <Icon name="chevronDown" className={`size-5 transition-transform ${collapsed ? 'rotate-180' : ''}`} />
        </IconButton>
        {summary.active === 0 && (
          <IconButton label={t('Close')} onPress={() => void clearCompleted()}>
            <Icon name="close" className="size-5" />
          </IconButton>
        )}
      </header>
      {!collapsed && (
        <ul className="max-h-80 divide-y divide-divider overflow-y-auto">
          {items.map((item) => (
            <UploadRow key={item.id} item={item} onCancel={(id) => void cancel(id)} onRetry={(id) => void retry(id)} />
          ))}
        </ul>
      )}
    </section>
  );
}
