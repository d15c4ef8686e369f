import { useEffect, useState } from 'react';
import { translate } from '../../i18n/i18n';
import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { useOnline } from '../../ui/use-online';
import { UploadRow } from './UploadRow';
import { summarize } from './upload-summary';
import { useRefreshOnUploadCompleted, useUploadQueue } from './use-upload-queue';

/** Finished uploads of an earlier visit are cleared once per page load (failed ones stay until dismissed). */
let clearedThisVisit = false;
const COLLAPSE_AFTER_MS = 4000;

/**
 * The upload queue, bottom right and collapsible. It shows itself while the
 * user has uploads, collapses a few seconds after everything finished, and a
 * finished list can be closed (which clears it).
 */
export function UploadPanel() {
  const { t } = useTrans();
  const { items, cancel, retry, resolve, clearCompleted } = useUploadQueue();
  useRefreshOnUploadCompleted();
  const online = useOnline();
  const [collapsed, setCollapsed] = useState(false);
  const summary = summarize(items, online);
  const allDone = items.length > 0 && summary.active === 0 && !items.some((item) => item.status === 'failed');

  useEffect(() => {
    if (clearedThisVisit) return;
    clearedThisVisit = true;
    void clearCompleted();
  }, [clearCompleted]);
  // Everything finished: fold away after a moment; new uploads open it again.
  const [folded, setFolded] = useState(false);
  useEffect(() => {
    if (!allDone) return;
    const timer = setTimeout(() => setFolded(true), COLLAPSE_AFTER_MS);
    return () => {
      clearTimeout(timer);
      setFolded(false);
    };
  }, [allDone]);
  const isCollapsed = collapsed || (folded && allDone);

  if (!items.length) return null;
  const title = translate(summary.key, { count: summary.count, ...summary.values, defaultValue: summary.fallback });
  return (
    <section
      aria-label={t('Uploads')}
      className="fixed bottom-[calc(1rem+var(--cookie-bar,0px))] right-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-lg border border-divider bg-paper text-fg shadow-xl"
    >
      <header className="flex items-center gap-2 bg-bg-alt py-1 pl-4 pr-1">
        <h2 className="flex-1 truncate text-sm font-semibold" aria-live="polite">
          {title}
          {summary.active > 0 && online && <span className="ml-2 font-normal text-fg-muted">{summary.percentage}%</span>}
        </h2>
        <IconButton
          label={isCollapsed ? t('Expand') : t('Collapse')}
          aria-expanded={!isCollapsed}
          onPress={() => {
            setFolded(false);
            setCollapsed(!isCollapsed);
          }}
        >
          <Icon name="chevronDown" className={`size-5 transition-transform ${isCollapsed ? 'rotate-180' : ''}`} />
        </IconButton>
        {summary.active === 0 && (
          <IconButton label={t('Close')} onPress={() => void clearCompleted()}>
            <Icon name="close" className="size-5" />
          </IconButton>
        )}
      </header>
      {!isCollapsed && (
        <ul className="max-h-80 divide-y divide-divider overflow-y-auto">
          {items.map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              onCancel={(id) => void cancel(id)}
              onRetry={(id) => void retry(id)}
              onResolve={(id, choice) => void resolve(id, choice)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
