import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ModalDialog } from '../../../ui/Dialog';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/toast/toast-store';
import { useBootstrap } from '../../bootstrap/store';
import { useChangeRole, useInviteMembers, useRemoveMember, useResendInvite } from '../api/mutations';
import { useWorkspace, useWorkspaceRoles } from '../api/queries';
import type { MemberRow, Workspace, WorkspaceRole } from '../api/types';
import { EmailChipInput } from '../components/EmailChipInput';
import { canSendInvites, withPending } from '../lib/email-chips';
import type { EmailChip } from '../lib/email-chips';
import { canRemove, memberPermissions, roleIsEditable } from '../lib/member-permissions';
import type { MemberPermissions } from '../lib/member-permissions';

type Confirming = { kind: 'remove'; row: MemberRow } | { kind: 'resend'; row: MemberRow } | null;

/** Spec §2 "Manage workspace members": the invite section and the member and invite rows, as §6 permits. */
export function ManageMembersDialog({ workspace: listed, onLeave, onClose }: { workspace: Workspace; onLeave: (w: Workspace) => void; onClose: () => void }) {
  const { t } = useTrans();
  const { user } = useBootstrap();
  const query = useWorkspace(listed.id);
  const workspace = query.data ?? listed;
  const userId = user?.id ?? -1;
  const permissions = memberPermissions(workspace, userId);
  const roles = useWorkspaceRoles();
  const remove = useRemoveMember(workspace.id);
  const resend = useResendInvite(workspace.id);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const rows = [...(workspace.members ?? []), ...(workspace.invites ?? [])];
  // Each opening paints the last answer (or the device's copy) while it asks again: a row of it may be gone (an invite
  // accepted since, a member who left). Its controls wait for the answer, or a role change goes to an invite that no
  // longer exists ("This invite does not exist.") while the member's row is about to appear.
  const checking = query.isFetching;

  return (
    <>
      <ModalDialog title={t('Manage workspace members')} isOpen onOpenChange={(open) => !open && onClose()} className="max-w-xl">
        <p className="-mt-2 mb-2 truncate text-sm text-fg-muted" data-testid="members-workspace">
          {workspace.name}
        </p>
        {permissions.invite && roles.data && <InviteSection workspaceId={workspace.id} roles={roles.data} />}
        <h3 className="mb-2 mt-4 text-sm font-semibold">{t('Members')}</h3>
        {query.isLoading && <Spinner />}
        {query.isError && <p className="text-sm text-danger">{getErrorMessage(query.error)}</p>}
        <ul className="divide-y divide-divider" aria-label={t('Members')}>
          {rows.map((row) => (
            <MemberRowItem
              key={`${row.model_type}-${row.id}`}
              workspaceId={workspace.id}
              row={row}
              userId={userId}
              permissions={permissions}
              checking={checking}
              roles={roles.data ?? []}
              onRemove={() => setConfirming({ kind: 'remove', row })}
              onResend={() => setConfirming({ kind: 'resend', row })}
              onLeave={() => onLeave(workspace)}
            />
          ))}
        </ul>
        <div className="mt-4 flex justify-end">
          <Button onPress={onClose} className={secondaryButtonClass}>
            {t('Close')}
          </Button>
        </div>
      </ModalDialog>
      {confirming?.kind === 'remove' && (
        <ConfirmDialog
          title={t('Remove member')}
          body={`${t('Are you sure you want to remove :name from this workspace?', { name: confirming.row.display_name || confirming.row.email })} ${t('All resources you created in the workspace will be transferred to the workspace owner.')}`}
          confirmLabel={t('Remove')}
          isPending={remove.isPending}
          onClose={() => setConfirming(null)}
          onConfirm={() =>
            remove.mutate(confirming.row, {
              onSuccess: ({ message }) => {
                toast.positive(message || t('Removed member'));
                setConfirming(null);
              },
              onError: (error) => toast.danger(getErrorMessage(error)),
            })
          }
        />
      )}
      {confirming?.kind === 'resend' && (
        <ConfirmDialog
          title={t('Resend invite')}
          body={t('Are you sure you want to resend the invite to :email?', { email: confirming.row.email })}
          confirmLabel={t('Resend')}
          isPending={resend.isPending}
          onClose={() => setConfirming(null)}
          onConfirm={() =>
            resend.mutate(String(confirming.row.id), {
              onSuccess: ({ message }) => {
                toast.positive(message || t('Invite sent'));
                setConfirming(null);
              },
              onError: (error) => toast.danger(getErrorMessage(error)),
            })
          }
        />
      )}
    </>
  );
}

function InviteSection({ workspaceId, roles }: { workspaceId: number; roles: WorkspaceRole[] }) {
  const { t } = useTrans();
  const invite = useInviteMembers(workspaceId);
  const [chips, setChips] = useState<EmailChip[]>([]);
  const [text, setText] = useState('');
  const toSend = withPending(chips, text);
  const [roleId, setRoleId] = useState<number | null>(roles[roles.length - 1]?.id ?? null);
  const [error, setError] = useState<string | undefined>();
  const send = () => {
    if (roleId === null) return;
    setError(undefined);
    invite.mutate(
      { emails: toSend.map((chip) => chip.name), roleId },
      {
        onSuccess: ({ message }) => {
          setChips([]);
          setText('');
          toast.positive(message || t('Invite sent'));
        },
        onError: (failure) => setError(getFieldError(failure, 'emails') ?? getFieldError(failure, 'roleId') ?? getErrorMessage(failure)),
      },
    );
  };
  return (
    <section aria-label={t('Invite')} className="space-y-2">
      <EmailChipInput chips={chips} onChange={setChips} text={text} onTextChange={setText} disabled={invite.isPending} />
      <div className="flex items-center gap-2">
        <select aria-label={t('Role')} value={roleId ?? ''} onChange={(event) => setRoleId(Number(event.target.value))} className={`${inputClass} flex-1`}>
          {roles.map((role) => (
            <option key={role.id} value={role.id} title={role.description ?? undefined}>
              {role.name}
            </option>
          ))}
        </select>
        <Button isDisabled={!canSendInvites(toSend, invite.isPending) || roleId === null} onPress={send} className={primaryButtonClass}>
          {t('Invite')}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}

function MemberRowItem({
  workspaceId,
  row,
  userId,
  permissions,
  checking,
  roles,
  onRemove,
  onResend,
  onLeave,
}: {
  workspaceId: number;
  row: MemberRow;
  userId: number;
  permissions: MemberPermissions;
  /** The list is being asked for again: this row may be gone from the answer. */
  checking: boolean;
  roles: WorkspaceRole[];
  onRemove: () => void;
  onResend: () => void;
  onLeave: () => void;
}) {
  const { t } = useTrans();
  const changeRole = useChangeRole(workspaceId);
  const isSelf = row.model_type === 'member' && Number(row.id) === userId;
  const roleName = row.is_owner ? t('Owner') : (row.role_name ?? '');
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2" data-testid="member-row" data-email={row.email}>
      {row.avatar ? (
        <img src={row.avatar} alt="" className="size-8 shrink-0 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/15 text-sm font-semibold text-primary">
          {(row.display_name || row.email).slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="min-w-40 flex-1 basis-40">
        <div className="truncate text-sm font-medium">
          {row.display_name || row.email}
          {row.model_type === 'invite' && <span className="ml-2 rounded bg-fg/10 px-1.5 py-0.5 text-xs font-normal text-fg-muted">{t('Invited')}</span>}
        </div>
        <div className="truncate text-xs text-fg-muted">{row.email}</div>
      </div>
      {roleIsEditable(row, userId, permissions) ? (
        <select
          aria-label={`${t('Role')}: ${row.display_name || row.email}`}
          value={row.role_id ?? ''}
          disabled={changeRole.isPending || checking}
          onChange={(event) => {
            const role = roles.find((r) => r.id === Number(event.target.value));
            if (!role) return;
            changeRole.mutate(
              { row, roleId: role.id, roleName: role.name },
              {
                onSuccess: ({ message }) => toast.positive(message || t('Role changed')),
                onError: (error) => toast.danger(getErrorMessage(error)),
              },
            );
          }}
          className={`${inputClass} w-36`}
        >
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.name}
            </option>
          ))}
        </select>
      ) : (
        <span className="w-36 text-right text-sm text-fg-muted">{roleName}</span>
      )}
      {row.model_type === 'invite' && permissions.invite && (
        <Button onPress={onResend} isDisabled={checking} className={secondaryButtonClass}>
          {t('Resend')}
        </Button>
      )}
      {isSelf && !row.is_owner && (
        <Button onPress={onLeave} className={secondaryButtonClass}>
          {t('Leave')}
        </Button>
      )}
      {canRemove(row, userId, permissions) && (
        <Button onPress={onRemove} isDisabled={checking} className={secondaryButtonClass}>
          {t('Remove')}
        </Button>
      )}
    </li>
  );
}
