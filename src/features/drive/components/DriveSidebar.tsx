import { useAtomValue } from 'jotai';
import { Link, useLocation } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import type { IconName } from '../../../ui/icons';
import { useIsMobile } from '../../../ui/use-media-query';
import { useOnline } from '../../../ui/use-online';
import { useBootstrap } from '../../bootstrap/store';
import { MobileMenuLinks } from '../../navigation/MobileMenu';
import { useCurrentWorkspace } from '../../workspaces/api/queries';
import { WorkspaceSelector } from '../../workspaces/components/WorkspaceSelector';
import { useDriveActions } from '../hooks/use-drive-actions';
import { useEntryDrop } from '../hooks/use-entry-drop';
import { mayDropOnTrash } from '../lib/actions';
import { DRIVE_VIEWS, SIDEBAR_VIEWS } from '../lib/views';
import type { DriveViewId } from '../lib/views';
import { uploadAllowedAtom, uploadTargetAtom } from '../state';
import { OFFLINE_FILES_PATH } from '../../offline-files/paths';
import { StorageSummary } from './StorageSummary';
import { UploadButton } from './UploadButton';

const ICONS: Record<DriveViewId, IconName> = {
  folder: 'folder',
  recent: 'schedule',
  sql: 'database',
  search: 'search',
  shares: 'people',
  starred: 'star',
  trash: 'delete',
};

const linkClass =
  'flex items-center gap-3 rounded-r-full px-4 py-2 text-sm font-medium text-fg hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary aria-[current=page]:bg-primary/15 aria-[current=page]:text-primary data-[drop-active]:bg-danger/15 data-[drop-active]:ring-2 data-[drop-active]:ring-danger';

/** The drive's views (active one marked), the upload entry point, storage and Upgrade. */
export function DriveSidebar() {
  const { t } = useTrans();
  const data = useBootstrap();
  const online = useOnline();
  const target = useAtomValue(uploadTargetAtom);
  // Hidden where the server's answer on the folder refuses uploads (a workspace viewer).
  const uploadAllowed = useAtomValue(uploadAllowedAtom);
  const isMobile = useIsMobile();
  return (
    <nav aria-label={t('Drive')} className="flex h-full w-60 shrink-0 flex-col gap-2 overflow-y-auto border-r border-divider bg-bg py-3 pr-2">
      <div className="px-3" hidden={uploadAllowed === false}>
        <UploadButton
          target={target}
          label={t('Upload')}
          className="flex w-full items-center justify-center gap-2 rounded-full bg-primary px-4 py-2 font-semibold text-on-primary hover:bg-primary-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          <Icon name="upload" className="size-5" />
          {t('Upload')}
        </UploadButton>
      </div>
      <ul className="space-y-0.5">
        {SIDEBAR_VIEWS.map((id) => (
          <li key={id}>{id === 'trash' ? <TrashLink online={online} /> : <ViewLink id={id} />}</li>
        ))}
        <li>
          <OfflineFilesLink />
        </li>
      </ul>
      <div className="mt-auto space-y-2 px-1">
        <StorageSummary />
        {data.billing.enable && (
          <Link
            to="/pricing"
            className="mx-3 flex items-center justify-center rounded-full border border-primary px-4 py-1.5 text-sm font-semibold text-primary hover:bg-primary/10 focus-visible:outline-2 focus-visible:outline-primary"
          >
            {t('Upgrade')}
          </Link>
        )}
        <WorkspaceSelector />
        {isMobile && (
          <div className="mt-2 border-t border-divider px-2 pt-2">
            <MobileMenuLinks />
          </div>
        )}
      </div>
    </nav>
  );
}

/** The root view is also active inside its folders. */
function useIsActive(id: DriveViewId): boolean {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '');
  if (id === 'folder') return path === '/drive' || path.startsWith('/drive/folders/');
  return path === DRIVE_VIEWS[id].path;
}

function ViewLink({ id }: { id: DriveViewId }) {
  const { t } = useTrans();
  const view = DRIVE_VIEWS[id];
  const active = useIsActive(id);
  // In a workspace the root is the workspace's, not "My drive".
  const workspace = useCurrentWorkspace();
  return (
    <Link to={view.path} aria-current={active ? 'page' : undefined} className={linkClass}>
      <Icon name={id === 'folder' && workspace ? 'people' : ICONS[id]} className="size-5 shrink-0" />
      <span className="truncate">{id === 'folder' && workspace ? workspace.name : t(view.label)}</span>
    </Link>
  );
}

/** What this device keeps for offline use (issue 39): not a listing view, so not one of DRIVE_VIEWS. */
function OfflineFilesLink() {
  const { t } = useTrans();
  const { pathname } = useLocation();
  const active = pathname.replace(/\/+$/, '') === OFFLINE_FILES_PATH;
  return (
    <Link to={OFFLINE_FILES_PATH} aria-current={active ? 'page' : undefined} className={linkClass}>
      <Icon name="cloudOff" className="size-5 shrink-0" />
      {t('Offline files')}
    </Link>
  );
}

/** Entries dropped here (after the 400 ms activation) go to the trash, never deleted for good (spec §4). */
function TrashLink({ online }: { online: boolean }) {
  const { t } = useTrans();
  const { trash } = useDriveActions();
  const { isDropActive, dropProps } = useEntryDrop({
    disabled: !online,
    // The same rule as the menus' "Move to trash": an entry the caller may not delete is not taken.
    accepts: (entries) => entries.length > 0 && mayDropOnTrash(entries),
    onDrop: (entries) => void trash(entries),
  });
  const view = DRIVE_VIEWS.trash;
  const active = useIsActive('trash');
  return (
    <Link to={view.path} aria-current={active ? 'page' : undefined} className={linkClass} data-drop-active={isDropActive || undefined} {...dropProps}>
      <Icon name={ICONS.trash} className="size-5 shrink-0" />
      {t(view.label)}
    </Link>
  );
}
