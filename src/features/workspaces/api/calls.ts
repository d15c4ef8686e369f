import { api } from '../../../api/http';

// The workspace calls of spec §7, one function each, typed by their path in the generated OpenAPI document.

export const workspaceCalls = {
  list: (signal?: AbortSignal) => api.get('me/workspaces', { signal }),
  one: (id: number, signal?: AbortSignal) => api.get('workspace/{id}', { path: { id }, query: { with: ['members', 'invites'] }, signal }),
  roles: (signal?: AbortSignal) => api.get('workspace-roles', { signal }),
  create: (name: string) => api.post('workspace', { name }),
  rename: (id: number, name: string) => api.put('workspace/{id}', { name }, { path: { id } }),
  remove: (id: number) => api.delete('workspace/{id}', { path: { id } }),
  join: (inviteId: string) => api.get('workspace/join/{inviteId}', { path: { inviteId } }),
  decline: (inviteId: string) => api.delete('workspace/invite/{inviteId}', { path: { inviteId } }),
  invite: (workspaceId: number, emails: string[], roleId: number) => api.post('workspace/{workspaceId}/invite', { emails, roleId }, { path: { workspaceId } }),
  resend: (workspaceId: number, inviteId: string) => api.post('workspace/{workspaceId}/{inviteId}/resend', undefined, { path: { workspaceId, inviteId } }),
  changeRole: (workspaceId: number, modelType: 'member' | 'invite', id: number | string, roleId: number) =>
    api.post('workspace/{workspaceId}/{modelType}/{id}/change-role', { roleId }, { path: { workspaceId, modelType, id: String(id) } }),
  removeMember: (workspaceId: number, memberId: number) => api.delete('workspace/{workspaceId}/member/{memberId}', { path: { workspaceId, memberId } }),
};
