import { api } from '../../../api/http';
import type { Workspace, WorkspaceRole } from './types';

// The workspace calls of spec §7, one function each, with the shapes of §3.

export interface MessageResponse {
  message?: string;
}

export const workspaceCalls = {
  list: (signal?: AbortSignal) => api.request<{ workspaces: Workspace[] }>('GET', 'me/workspaces', { signal }),
  one: (id: number, signal?: AbortSignal) =>
    api.request<{ workspace: Workspace }>('GET', `workspace/${id}`, { params: { with: ['members', 'invites'] }, signal }),
  roles: (signal?: AbortSignal) => api.request<{ workspaceRoles: WorkspaceRole[] }>('GET', 'workspace-roles', { signal }),
  create: (name: string) => api.request<{ workspace: Workspace } & MessageResponse>('POST', 'workspace', { json: { name } }),
  rename: (id: number, name: string) => api.request<{ workspace: Workspace } & MessageResponse>('PUT', `workspace/${id}`, { json: { name } }),
  remove: (id: number) => api.request<MessageResponse>('DELETE', `workspace/${id}`),
  join: (inviteId: string) => api.request<{ workspace: Workspace } & MessageResponse>('GET', `workspace/join/${encodeURIComponent(inviteId)}`),
  decline: (inviteId: string) => api.request<MessageResponse>('DELETE', `workspace/invite/${encodeURIComponent(inviteId)}`),
  invite: (workspaceId: number, emails: string[], roleId: number) =>
    api.request<{ workspace: Workspace } & MessageResponse>('POST', `workspace/${workspaceId}/invite`, { json: { emails, roleId } }),
  resend: (workspaceId: number, inviteId: string) => api.request<MessageResponse>('POST', `workspace/${workspaceId}/${encodeURIComponent(inviteId)}/resend`),
  changeRole: (workspaceId: number, modelType: 'member' | 'invite', id: number | string, roleId: number) =>
    api.request<MessageResponse>('POST', `workspace/${workspaceId}/${modelType}/${encodeURIComponent(String(id))}/change-role`, { json: { roleId } }),
  removeMember: (workspaceId: number, memberId: number) => api.request<MessageResponse>('DELETE', `workspace/${workspaceId}/member/${memberId}`),
};
