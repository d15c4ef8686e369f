import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { useTimezone } from '../../../i18n/use-timezone';
import { AdSlot } from '../../../ui/AdSlot';
import { Spinner } from '../../../ui/Spinner';
import { useOnline } from '../../../ui/use-online';
import { useFolderPath, useListing } from '../api';
import type { FileEntry } from '../api/types';
import { Breadcrumbs } from '../components/Breadcrumbs';
import { DetailsPanel } from '../components/DetailsPanel';
import { EmptyState } from '../components/EmptyState';
import { EntryContextMenu } from '../components/EntryContextMenu';
import type { ContextMenuState } from '../components/EntryContextMenu';
import { EntryListing } from '../components/EntryListing';
import { FileDropZone } from '../components/FileDropZone';
import { OfflineNotice } from '../components/OfflineNotice';
import { PageActions } from '../components/PageActions';
import { SelectionToolbar } from '../components/SelectionToolbar';
import { useDriveActions } from '../hooks/use-drive-actions';
import { keyCommandAction } from '../lib/actions';
import type { ActionId } from '../lib/actions';
import { emptyStateFor } from '../lib/empty-states';
import { EMPTY_SELECTION, pruneSelection } from '../lib/selection';
import type { Selection } from '../lib/selection';
import { hasSearchInput, ROOT_HASH } from '../lib/views';
import type { DriveView, SearchFilters, SortDescriptor } from '../lib/views';
import { detailsOpenAtom, sortAtom, uploadAllowedAtom, uploadTargetAtom, viewModeAtom } from '../state';
import { useCurrentWorkspace } from '../../workspaces/api/queries';

export const ROOT_TITLE = 'Drive';

/** One drive listing view (spec §3): header, toolbar, entries or the view's empty state, details. */
export function ListingPage({
  view,
  folderHash = ROOT_HASH,
  search,
  children,
}: {
  view: DriveView;
  folderHash?: string;
  search?: SearchFilters;
  children?: ReactNode;
}) {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const online = useOnline();
  const mode = useAtomValue(viewModeAtom);
  const detailsOpen = useAtomValue(detailsOpenAtom);
  const setUploadTarget = useSetAtom(uploadTargetAtom);
  const [sorts, setSorts] = useAtom(sortAtom);
  const sort = sorts[view.id] ?? view.sort;
  const searching = hasSearchInput(search);
  const listing = useListing({ view: view.id, folderId: folderHash, sort, search }, { enabled: view.id !== 'search' || searching });
  const path = useFolderPath(view.id === 'folder' ? folderHash : ROOT_HASH);
  const actions = useDriveActions();
  const [rawSelection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [menu, setMenu] = useState<ContextMenuState | null>(null);
  const { entries, folder } = listing;

  const order = useMemo(() => entries.map((e) => e.id), [entries]);
  const selection = useMemo(() => pruneSelection(rawSelection, order), [rawSelection, order]);
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);
  const selected = useMemo(() => selection.selected.map((id) => byId.get(id)).filter((e): e is FileEntry => !!e), [selection, byId]);

  // A folder page uploads into the folder in its address, whether or not its listing has loaded (offline).
  const uploadTarget = view.id === 'folder' ? folderHash : view.id === 'sql' ? (folder?.hash ?? ROOT_HASH) : ROOT_HASH;
  const setUploadAllowed = useSetAtom(uploadAllowedAtom);
  const uploadAllowed = view.id === 'folder' && folder ? view.canUpload(folder) : null;
  useEffect(() => {
    setUploadTarget(uploadTarget);
    setUploadAllowed(uploadAllowed);
  }, [uploadTarget, setUploadTarget, uploadAllowed, setUploadAllowed]);

  const dateFormat = useMemo(() => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }), [language, timezone]);
  const formatDate = useCallback((iso: string) => dateFormat.format(new Date(iso)), [dateFormat]);

  const { run, moveTo } = actions;
  const handleAction = useCallback((action: ActionId, targets: FileEntry[]) => run(action, targets, entries), [run, entries]);
  const handleOpen = useCallback((entry: FileEntry) => view.id !== 'trash' && run('open', [entry], entries), [run, entries, view.id]);
  const handleCommand = useCallback(
    (command: 'trash' | 'rename', targets: FileEntry[]) => {
      // A key runs what the menus would offer for these entries, nothing else (issue 32.4).
      const action = keyCommandAction(view.id, command, targets);
      if (action) run(action, targets);
    },
    [run, view.id],
  );
  const handleDropOnFolder = useCallback(
    (target: FileEntry, ids: string[]) =>
      moveTo(
        ids.map((id) => byId.get(id)).filter((e): e is FileEntry => !!e),
        target.hash,
      ),
    [moveTo, byId],
  );
  const handleContextMenu = useCallback((targets: FileEntry[], point: { x: number; y: number }) => setMenu({ entries: targets, ...point }), [setMenu]);
  const handleSortChange = (next: SortDescriptor) => setSorts((all) => ({ ...all, [view.id]: next }));

  const canUpload = online && view.canUpload(folder);
  const title = view.id === 'folder' ? null : t(view.label);
  // Inside a workspace its name replaces "Drive" at the root and follows every other view's title.
  const workspace = useCurrentWorkspace();
  const rootLabel = workspace?.name ?? t(ROOT_TITLE);
  let body: ReactNode;
  if (listing.isLoading) body = <Spinner />;
  else if (!entries.length && listing.isError && !listing.fromCache)
    body = online ? (
      <p role="alert" className="p-6 text-danger">
        {t(getErrorMessage(listing.error))}
      </p>
    ) : null;
  else if (!entries.length && !online && !listing.fromCache) body = null;
  else if (!entries.length)
    body = <EmptyState message={emptyStateFor(view.id, searching)} icon={view.id === 'trash' ? 'delete' : view.id === 'search' ? 'search' : 'folder'} />;
  else
    body = (
      <EntryListing
        label={title ?? path?.at(-1)?.name ?? rootLabel}
        entries={entries}
        mode={mode}
        selection={selection}
        onSelectionChange={setSelection}
        onOpen={handleOpen}
        onCommand={handleCommand}
        onContextMenu={handleContextMenu}
        canDrag={online && view.id !== 'trash'}
        onDropOnFolder={handleDropOnFolder}
        hasNextPage={listing.hasNextPage}
        isFetchingNextPage={listing.isFetchingNextPage}
        fetchNextPage={listing.fetchNextPage}
        formatDate={formatDate}
      />
    );

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex min-h-14 flex-wrap items-center gap-2 px-4 pt-3">
        <div className="min-w-0 flex-1">
          {title ? (
            <h1 className="truncate text-lg font-semibold">
              {title}
              {workspace && <span className="font-normal text-fg-muted"> · {workspace.name}</span>}
            </h1>
          ) : (
            <Breadcrumbs path={path} fallbackName={folder?.name ?? ''} rootLabel={rootLabel} />
          )}
        </div>
        <PageActions view={view} folder={folder} target={uploadTarget} online={online} isEmpty={!entries.length} />
      </header>
      {children}
      <SelectionToolbar view={view.id} selected={selected} online={online} onAction={handleAction} sort={sort} onSortChange={handleSortChange} />
      <OfflineNotice online={online} hasCopy={entries.length > 0 || listing.fromCache} />
      <AdSlot slot="drive" className="px-4 py-2" />
      <div className="relative flex min-h-0 flex-1">
        <FileDropZone enabled={canUpload} target={uploadTarget}>
          {body}
        </FileDropZone>
        {detailsOpen && <DetailsPanel entry={selected.length === 1 ? selected[0]! : null} />}
      </div>
      <EntryContextMenu state={menu} view={view.id} online={online} onAction={handleAction} onClose={() => setMenu(null)} />
    </div>
  );
}
