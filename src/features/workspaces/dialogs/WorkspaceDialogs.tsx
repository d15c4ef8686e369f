import { useAtom } from 'jotai';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { NameDialog } from '../../../ui/NameDialog';
import { toast } from '../../../ui/toast/toast-store';
import { useBootstrap } from '../../bootstrap/store';
import { useCreateWorkspace, useDeleteWorkspace, useLeaveWorkspace, useRenameWorkspace } from '../api/mutations';
import { useWorkspace } from '../api/queries';
import type { Workspace } from '../api/types';
import { ownMembership } from '../lib/member-permissions';
import { workspaceDialogAtom } from '../state';
import { ManageMembersDialog } from './ManageMembersDialog';

export const WORKSPACE_NAME_MIN = 3;

/** The workspace dialogs of spec §2, opened from the selector. */
export function WorkspaceDialogs() {
  const { t } = useTrans();
  const [dialog, setDialog] = useAtom(workspaceDialogAtom);
  const create = useCreateWorkspace();
  const rename = useRenameWorkspace();
  const remove = useDeleteWorkspace();
  const close = () => setDialog(null);
  const validateName = (name: string) => (name.length < WORKSPACE_NAME_MIN ? t('Must be at least :min characters', { min: WORKSPACE_NAME_MIN }) : undefined);
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'create':
      return (
        <NameDialog
          title={t('Create workspace')}
          submitLabel={t('Create')}
          initialName=""
          isPending={create.isPending}
          validate={validateName}
          onSubmit={async (name) => toast.positive((await create.mutateAsync(name)).message || t('Created workspace'))}
          onClose={close}
        />
      );
    case 'rename':
      return (
        <NameDialog
          title={t('Rename workspace')}
          submitLabel={t('Rename')}
          initialName={dialog.workspace.name}
          isPending={rename.isPending}
          validate={validateName}
          onSubmit={async (name) => toast.positive((await rename.mutateAsync({ id: dialog.workspace.id, name })).message || t('Updated workspace'))}
          onClose={close}
        />
      );
    case 'delete':
      return (
        <ConfirmDialog
          title={t('Delete workspace')}
          body={`${t('Are you sure you want to delete this workspace?')} ${t('Its files and folders will be moved to your trash.')}`}
          confirmLabel={t('Delete')}
          isPending={remove.isPending}
          onClose={close}
          onConfirm={() =>
            remove.mutate(dialog.workspace.id, {
              onSuccess: ({ message }) => {
                toast.positive(message || t('Deleted workspace'));
                close();
              },
              onError: (error) => toast.danger(getErrorMessage(error)),
            })
          }
        />
      );
    case 'leave':
      return <LeaveDialog workspace={dialog.workspace} onClose={close} />;
    case 'members':
      return <ManageMembersDialog workspace={dialog.workspace} onLeave={(workspace) => setDialog({ kind: 'leave', workspace })} onClose={close} />;
  }
}

/** Leaving needs one's own membership id, which the workspace's member rows carry. */
function LeaveDialog({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const { t } = useTrans();
  const { user } = useBootstrap();
  const details = useWorkspace(workspace.id);
  const leave = useLeaveWorkspace();
  const own = details.data && user ? ownMembership(details.data, user.id) : undefined;
  return (
    <ConfirmDialog
      title={t('Leave workspace')}
      body={`${t('Are you sure you want to leave this workspace?')} ${t('All resources you created in the workspace will be transferred to the workspace owner.')}`}
      confirmLabel={t('Leave')}
      isPending={leave.isPending || !own}
      onClose={onClose}
      onConfirm={() =>
        own &&
        leave.mutate(
          { workspaceId: workspace.id, memberId: Number(own.member_id ?? own.id) },
          {
            onSuccess: ({ message }) => {
              toast.positive(message || t('Left workspace'));
              onClose();
            },
            onError: (error) => toast.danger(getErrorMessage(error)),
          },
        )
      }
    />
  );
}
