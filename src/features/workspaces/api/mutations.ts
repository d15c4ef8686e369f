import { useMutation, useQueryClient } from '@tanstack/react-query';
import { activeWorkspaceId, setActiveWorkspace } from '../../../api/active-workspace';
import { afterLosing } from '../lib/active';
import { workspaceCalls } from './calls';
import { workspaceKeys } from './keys';
import type { MemberRow, Workspace } from './types';

// The workspace writes of spec §7. Each refreshes what it changed; the toasts'
// texts come from the server's `message` (the spec's wording, translated there).

/** Switching workspace (spec §4): the cookie and state change; the drive's keys lead with the id, so its data reloads. */
export function switchWorkspace(id: number): void {
  if (id !== activeWorkspaceId()) setActiveWorkspace(id);
}

function useRefreshWorkspaces() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: workspaceKeys.all });
}

export function useCreateWorkspace() {
  const refresh = useRefreshWorkspaces();
  return useMutation({
    mutationFn: (name: string) => workspaceCalls.create(name),
    onSuccess: async ({ workspace }) => {
      await refresh();
      switchWorkspace(workspace.id);
    },
  });
}

export function useRenameWorkspace() {
  const refresh = useRefreshWorkspaces();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => workspaceCalls.rename(id, name),
    onSuccess: () => refresh(),
  });
}

/** Deleting, leaving and removal of oneself all end with the workspace gone from one's list. */
function useLoseWorkspace<Input>(call: (input: Input) => Promise<{ message?: string }>, workspaceOf: (input: Input) => number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (_answer, input) => {
      const id = workspaceOf(input);
      switchWorkspace(afterLosing(activeWorkspaceId(), id));
      // Gone from the list first: what still shows it (the members dialog closing) stops asking for it,
      // so the removal below is not followed by one more request answered 404.
      client.setQueryData<Workspace[]>(workspaceKeys.list, (list) => list?.filter((w) => w.id !== id));
      await client.cancelQueries({ queryKey: workspaceKeys.one(id) });
      client.removeQueries({ queryKey: workspaceKeys.one(id) });
      await client.invalidateQueries({ queryKey: workspaceKeys.list });
    },
  });
}

export function useDeleteWorkspace() {
  return useLoseWorkspace(
    (id: number) => workspaceCalls.remove(id),
    (id) => id,
  );
}

export function useLeaveWorkspace() {
  return useLoseWorkspace(
    ({ workspaceId, memberId }: { workspaceId: number; memberId: number }) => workspaceCalls.removeMember(workspaceId, memberId),
    (input) => input.workspaceId,
  );
}

/** Removes a member, or revokes an invite (the decline call also removes an invite row, spec §7). */
export function useRemoveMember(workspaceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (row: MemberRow) =>
      row.model_type === 'invite' ? workspaceCalls.decline(String(row.id)) : workspaceCalls.removeMember(workspaceId, Number(row.member_id ?? row.id)),
    onSuccess: () => client.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}

export function useInviteMembers(workspaceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ emails, roleId }: { emails: string[]; roleId: number }) => workspaceCalls.invite(workspaceId, emails, roleId),
    onSuccess: ({ workspace }) => {
      if (workspace?.members) client.setQueryData(workspaceKeys.one(workspaceId), workspace);
      return client.invalidateQueries({ queryKey: workspaceKeys.all });
    },
  });
}

export function useResendInvite(workspaceId: number) {
  return useMutation({ mutationFn: (inviteId: string) => workspaceCalls.resend(workspaceId, inviteId) });
}

/** Spec §4 "Member rows": the role change shows at once in the row and rolls back if the server refuses it. */
export function useChangeRole(workspaceId: number) {
  const client = useQueryClient();
  const key = workspaceKeys.one(workspaceId);
  return useMutation({
    mutationFn: ({ row, roleId }: { row: MemberRow; roleId: number; roleName: string }) =>
      workspaceCalls.changeRole(workspaceId, row.model_type, row.model_type === 'member' ? (row.member_id ?? row.id) : row.id, roleId),
    onMutate: async ({ row, roleId, roleName }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Workspace>(key);
      const swap = (rows: MemberRow[] | undefined) =>
        rows?.map((r) => (r.model_type === row.model_type && r.id === row.id ? { ...r, role_id: roleId, role_name: roleName } : r));
      if (before) client.setQueryData<Workspace>(key, { ...before, members: swap(before.members), invites: swap(before.invites) });
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** Spec §4 "Workspace invite": joining makes the workspace active and refreshes the list and notifications. */
export function useJoinWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => workspaceCalls.join(inviteId),
    onSuccess: async ({ workspace }) => {
      // The list must hold the workspace before it becomes active, or the selector would find it missing and reset to 0.
      await client.invalidateQueries({ queryKey: workspaceKeys.all });
      switchWorkspace(workspace.id);
      await client.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}

export function useDeclineInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => workspaceCalls.decline(inviteId),
    onSuccess: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
