import { memo } from 'react';
import type { CSSProperties } from 'react';
import { Icon } from '../../../ui/icons';
import type { FileEntry } from '../api/types';
import { FileIcon } from './FileIcon';
import { useEntryItem } from './use-entry-item';
import { OfflineBadge } from '../offline/OfflineBadge';
import { purgeLine } from '../lib/trash-messages';
import { useTrans } from '../../../i18n/use-trans';

/** One entry in the grid view: a thumbnail (images) or the kind's icon, and the name. */
export const EntryCard = memo(function EntryCard({ entry, style }: { entry: FileEntry; style: CSSProperties }) {
  const { itemProps } = useEntryItem(entry);
  const { t } = useTrans();
  return (
    <div
      {...itemProps}
      aria-label={entry.name}
      style={style}
      className="absolute flex cursor-default select-none flex-col overflow-hidden rounded-lg border border-divider bg-paper hover:shadow aria-selected:border-primary aria-selected:bg-primary/10 data-[drop-active]:ring-2 data-[drop-active]:ring-primary data-[focused]:outline data-[focused]:outline-1 data-[focused]:outline-primary/60"
    >
      <div className="flex flex-1 items-center justify-center overflow-hidden bg-fg/5">
        {entry.thumbnail_url ? (
          <img src={entry.thumbnail_url} alt="" loading="lazy" draggable={false} className="h-full w-full object-cover" />
        ) : (
          <FileIcon entry={entry} className="size-16" />
        )}
      </div>
      <div className="flex items-center gap-2 px-3 py-2 text-sm">
        <FileIcon entry={entry} className="size-4" />
        <span className="min-w-0 flex-1 truncate font-medium">{entry.name}</span>
        <OfflineBadge entryId={entry.id} />
        {entry.is_starred && <Icon name="star" className="size-4 text-amber-500" />}
        {entry.is_shared && <Icon name="people" className="size-4 text-fg-muted" />}
      </div>
      {entry.deleted_at && entry.purge_at && (
        <div className="truncate px-3 pb-2 text-xs text-fg-muted" data-testid="entry-purge">
          {purgeLine(entry.purge_at, t)}
        </div>
      )}
    </div>
  );
});
