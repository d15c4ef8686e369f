import { useEffect } from 'react';
import { useSetAtom } from 'jotai';
import { Button, Dialog, DialogTrigger, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useActiveWorkspace } from '../../../api/active-workspace';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import { hasPermission } from '../../bootstrap/permissions';
import { useBootstrap } from '../../bootstrap/store';
import { switchWorkspace } from '../api/mutations';
import { useWorkspaces } from '../api/queries';
import type { Workspace } from '../api/types';
import { reconcileActive } from '../lib/active';
import { isOwner, memberPermissions } from '../lib/member-permissions';
import { useNavigate } from 'react-router-dom';
import { workspaceDialogAtom } from '../state';
import type { WorkspaceDialog } from '../state';

const itemClass = 'flex cursor-default items-center gap-3 px-4 py-2 text-sm outline-none data-[focused]:bg-fg/10 data-[hovered]:bg-fg/5';

/** Spec §2: the popover at the bottom of the drive sidebar that lists and switches workspaces. */
export function WorkspaceSelector() {
  const { t } = useTrans();
  const data = useBootstrap();
  const activeId = useActiveWorkspace();
  const list = useWorkspaces();
  const canCreate = hasPermission(data, 'workspaces.create');
  const open = useSetAtom(workspaceDialogAtom);

  // An active workspace the server no longer lists (left, removed, deleted elsewhere) falls back to Private.
  useEffect(() => {
    const next = reconcileActive(activeId, list.workspaces, list.confirmed);
    if (next !== activeId) switchWorkspace(next);
  }, [activeId, list.workspaces, list.confirmed]);

  const active = list.workspaces.find((w) => w.id === activeId);
  const label = (w: Workspace | undefined) => (!w || w.default ? t('Private') : w.name);
  const detail = (w: Workspace | undefined) => (!w || w.default ? t('Personal Workspace') : t(':count members', { count: w.members_count }));

  return (
    <DialogTrigger>
      <Button
        aria-label={t('Workspaces')}
        data-testid="workspace-selector"
        className="mx-3 flex w-[calc(100%-1.5rem)] items-center gap-3 rounded-lg border border-divider px-3 py-2 text-left hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold">{label(active)}</span>
          <span className="block truncate text-xs text-fg-muted">{detail(active)}</span>
        </span>
        <Icon name="unfoldMore" className="size-5 text-fg-muted" />
      </Button>
      <Popover
        placement="top start"
        offset={8}
        className="z-50 max-h-[420px] w-72 overflow-auto rounded-lg border border-divider bg-paper py-2 text-fg shadow-xl"
      >
        <Dialog aria-label={t('Workspaces')} className="outline-none">
          {({ close }) => (
            <>
              <ul>
                {(list.workspaces.length ? list.workspaces : [undefined]).map((w) => (
                  <li key={w?.id ?? 0} className="flex items-center gap-1 pr-2">
                    <Button
                      onPress={() => {
                        switchWorkspace(w?.id ?? 0);
                        close();
                      }}
                      aria-current={(w?.id ?? 0) === activeId ? 'true' : undefined}
                      className="flex min-w-0 flex-1 items-center gap-3 px-4 py-2 text-left outline-none hover:bg-fg/5 focus-visible:bg-fg/10"
                    >
                      <Icon name="check" className={`size-5 shrink-0 text-primary ${(w?.id ?? 0) === activeId ? '' : 'invisible'}`} />
                      <span className="min-w-0">
                        <span className="block truncate text-sm font-medium">{label(w)}</span>
                        <span className="block truncate text-xs text-fg-muted">{detail(w)}</span>
                      </span>
                    </Button>
                    {w && !w.default && <ManageMenu workspace={w} onOpen={(dialog) => (close(), open(dialog))} />}
                  </li>
                ))}
              </ul>
              {canCreate && (
                <Button
                  onPress={() => {
                    close();
                    open({ kind: 'create' });
                  }}
                  className="mt-1 flex w-full items-center gap-3 border-t border-divider px-4 py-2 text-sm text-primary outline-none hover:bg-fg/5 focus-visible:bg-fg/10"
                >
                  <Icon name="add" className="size-5" />
                  {t('Create new workspace')}
                </Button>
              )}
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

/** Spec §6: Rename and Delete only for the owner; everyone else gets Leave. */
function ManageMenu({ workspace, onOpen }: { workspace: Workspace; onOpen: (dialog: WorkspaceDialog) => void }) {
  const { t } = useTrans();
  const { user } = useBootstrap();
  const owner = !!user && isOwner(workspace, user.id);
  // The activity page is the workspace admins' (the owner, or a role that may manage members).
  const admin = !!user && memberPermissions(workspace, user.id).update;
  const navigate = useNavigate();
  return (
    <MenuTrigger>
      <Button
        aria-label={t('Manage')}
        className="inline-flex size-8 items-center justify-center rounded-full text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <Icon name="moreVert" className="size-5" />
      </Button>
      <Popover placement="bottom end" className="z-50 min-w-48 rounded-lg border border-divider bg-paper py-1 text-fg shadow-xl">
        <Menu aria-label={t('Manage')} className="outline-none">
          <MenuItem id="members" onAction={() => onOpen({ kind: 'members', workspace })} className={itemClass}>
            <Icon name="people" className="size-5" />
            {t('Members')}
          </MenuItem>
          {admin && (
            <MenuItem id="activity" onAction={() => void navigate(`/drive/workspace/${workspace.id}/activity`)} className={itemClass}>
              <Icon name="people" className="size-5" />
              {t('Workspace activity')}
            </MenuItem>
          )}
          {owner && (
            <MenuItem id="rename" onAction={() => onOpen({ kind: 'rename', workspace })} className={itemClass}>
              <Icon name="edit" className="size-5" />
              {t('Rename')}
            </MenuItem>
          )}
          {owner ? (
            <MenuItem id="delete" onAction={() => onOpen({ kind: 'delete', workspace })} className={itemClass}>
              <Icon name="delete" className="size-5" />
              {t('Delete')}
            </MenuItem>
          ) : (
            <MenuItem id="leave" onAction={() => onOpen({ kind: 'leave', workspace })} className={itemClass}>
              <Icon name="exit" className="size-5" />
              {t('Leave')}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
