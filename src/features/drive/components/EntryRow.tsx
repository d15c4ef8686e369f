import { memo } from 'react';
import type { CSSProperties } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { useBootstrap } from '../../bootstrap/store';
import { Icon } from '../../../ui/icons';
import type { FileEntry } from '../api/types';
import { formatBytes } from '../../../i18n/format-size';
import { ContentSnippet, contentMatchOf } from './ContentSnippet';
import { FileIcon } from './FileIcon';
import { useEntryItem } from './use-entry-item';
import { OfflineBadge } from '../offline/OfflineBadge';
import { purgeLine } from '../lib/trash-messages';

export const ROW_HEIGHT = 48;

/** One entry in the list view: icon, name, star, modified, size. */
export const EntryRow = memo(function EntryRow({ entry, style }: { entry: FileEntry; style: CSSProperties }) {
  const { t } = useTrans();
  const { itemProps, formatDate } = useEntryItem(entry);
  const { user } = useBootstrap();
  const snippet = contentMatchOf(entry);
  return (
    <div
      {...itemProps}
      aria-label={entry.name}
      style={style}
      className="absolute left-0 right-0 flex cursor-default select-none items-center gap-3 border-b border-divider px-4 text-sm hover:bg-fg/5 aria-selected:bg-primary/15 data-[drop-active]:bg-primary/25 data-[drop-active]:ring-2 data-[drop-active]:ring-primary data-[focused]:outline data-[focused]:outline-1 data-[focused]:-outline-offset-1 data-[focused]:outline-primary/60"
    >
      <FileIcon entry={entry} />
      {snippet ? (
        <span className="min-w-0 flex-1 leading-tight">
          <span className="block truncate font-medium">{entry.name}</span>
          <ContentSnippet segments={snippet} />
        </span>
      ) : (
        <span className="min-w-0 flex-1 truncate font-medium">{entry.name}</span>
      )}
      <OfflineBadge entryId={entry.id} />
      {entry.is_starred && <Icon name="star" className="size-4 text-amber-500" aria-label={t('Starred')} />}
      {entry.is_shared && <Icon name="people" className="size-4 text-fg-muted" aria-label={t('Shared')} />}
      {/* Someone else's entry (shared with me, a workspace's): whose it is. */}
      {entry.owner_name && entry.owner_id !== user?.id && (
        <span className="hidden w-40 shrink-0 truncate text-fg-muted sm:block" data-testid="entry-owner">
          {entry.owner_name}
        </span>
      )}
      {/* In the trash, when it goes for good matters more than when it last changed. */}
      {entry.deleted_at && entry.purge_at ? (
        <span className="hidden w-56 shrink-0 truncate text-fg-muted sm:block" data-testid="entry-purge">
          {purgeLine(entry.purge_at, t)}
        </span>
      ) : (
        <span className="hidden w-40 shrink-0 text-fg-muted md:block">{formatDate(entry.updated_at)}</span>
      )}
      <span className="hidden w-24 shrink-0 text-right text-fg-muted sm:block">
        {entry.type === 'folder' && !entry.file_size ? '—' : formatBytes(entry.file_size)}
      </span>
    </div>
  );
});
