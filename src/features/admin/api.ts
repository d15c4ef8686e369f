import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import type { ApiBody, ApiQuery } from '../../api/typed-paths';
import type { Bootstrap } from '../../api/bootstrap-types';
import { useSetBootstrap } from '../bootstrap/store';

// The admin area's calls (server/modules/admin): typed by path, one key family.
export const adminKeys = {
  all: ['admin'] as const,
  users: (query: object) => ['admin', 'users', query] as const,
  user: (id: number) => ['admin', 'user', id] as const,
  roles: ['admin', 'roles'] as const,
  permissions: ['admin', 'permissions'] as const,
  settings: ['admin', 'settings'] as const,
  activity: (query: object) => ['admin', 'activity', query] as const,
};

export type UserQuery = ApiQuery<'admin/users', 'get'>;
export type UserBody = ApiBody<'admin/users', 'post'>;
export type UserUpdate = ApiBody<'admin/users/{id}', 'put'>;
export type RoleBody = ApiBody<'admin/roles', 'post'>;
export type SettingsBody = ApiBody<'admin/settings', 'put'>;

export function useAdminUsers(query: UserQuery) {
  return useQuery({
    queryKey: adminKeys.users(query),
    queryFn: ({ signal }) => api.get('admin/users', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export function useAdminUser(id: number | null) {
  return useQuery({
    queryKey: adminKeys.user(id ?? 0),
    queryFn: ({ signal }) => api.get('admin/users/{id}', { path: { id: id ?? 0 }, signal }).then((r) => r.user),
    enabled: id !== null,
  });
}

function useInvalidateAdmin() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.all });
}

export function useSaveUser(id: number | null) {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: UserBody | UserUpdate) =>
      id === null ? api.post('admin/users', body as UserBody) : api.put('admin/users/{id}', body as UserUpdate, { path: { id } }),
    onSuccess: invalidate,
  });
}

export function useBulkUpdate() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: ApiBody<'admin/users/bulk-update', 'post'>) => api.post('admin/users/bulk-update', body),
    onSuccess: invalidate,
  });
}

export function useDeleteUsers() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ ids, currentPassword }: { ids: number[]; currentPassword?: string }) =>
      api.post('admin/users/bulk-delete', { ids, ...(currentPassword ? { current_password: currentPassword } : {}) }),
    onSuccess: invalidate,
  });
}

/** Removes every second factor of a user who lost them (issue 36); the server asks the admin's own password. */
export function useResetTwoFactor() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, currentPassword }: { id: number; currentPassword?: string }) =>
      api.post('admin/users/{id}/two-factor/reset', currentPassword ? { current_password: currentPassword } : {}, { path: { id } }),
    onSuccess: invalidate,
  });
}

export function useSendReset() {
  return useMutation({ mutationFn: (id: number) => api.post('admin/users/{id}/password-reset', undefined, { path: { id } }) });
}

/** Sign in as a user: the app takes their bootstrap data and goes to the drive. */
export function useImpersonate() {
  const setBootstrap = useSetBootstrap();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, currentPassword }: { id: number; currentPassword?: string }) =>
      api.post('admin/users/{id}/impersonate', currentPassword ? { current_password: currentPassword } : undefined, { path: { id } }),
    onSuccess: ({ bootstrapData }) => {
      client.clear();
      setBootstrap(bootstrapData as Bootstrap);
    },
  });
}

export function useStopImpersonating() {
  const setBootstrap = useSetBootstrap();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('admin/impersonation/stop'),
    onSuccess: ({ bootstrapData }) => {
      client.clear();
      setBootstrap(bootstrapData as Bootstrap);
    },
  });
}

export function useRoles() {
  return useQuery({ queryKey: adminKeys.roles, queryFn: ({ signal }) => api.get('admin/roles', { signal }).then((r) => r.roles) });
}

export function usePermissionCatalogue() {
  return useQuery({ queryKey: adminKeys.permissions, queryFn: ({ signal }) => api.get('admin/permissions', { signal }).then((r) => r.permissions) });
}

export function useSaveRole(id: number | null) {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: RoleBody) => (id === null ? api.post('admin/roles', body) : api.put('admin/roles/{id}', body, { path: { id } })),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: (id: number) => api.delete('admin/roles/{id}', { path: { id } }), onSuccess: invalidate });
}

export function useAdminSettings() {
  return useQuery({ queryKey: adminKeys.settings, queryFn: ({ signal }) => api.get('admin/settings', { signal }) });
}

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsBody) => api.put('admin/settings', body),
    onSuccess: (data) => {
      client.setQueryData(adminKeys.settings, data);
      // Settings shape the whole app (bootstrap data): read them again.
      void client.invalidateQueries({ queryKey: ['bootstrap-data'] });
    },
  });
}

export function useTestMail() {
  return useMutation({ mutationFn: () => api.post('admin/settings/test-mail', {}) });
}

export interface ActivityQuery {
  page: number;
  query?: string;
}

export function useActivity(query: ActivityQuery) {
  return useQuery({
    queryKey: adminKeys.activity(query),
    queryFn: ({ signal }) => api.get('admin/activity', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export type FileQuery = ApiQuery<'admin/files', 'get'>;
export type WorkspaceQuery = ApiQuery<'admin/workspaces', 'get'>;

export function useAdminFiles(query: FileQuery) {
  return useQuery({
    queryKey: ['admin', 'files', query],
    queryFn: ({ signal }) => api.get('admin/files', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export function useDeleteFiles() {
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: (ids: number[]) => api.post('admin/files/delete', { ids }), onSuccess: invalidate });
}

export function useAdminWorkspaces(query: WorkspaceQuery) {
  return useQuery({
    queryKey: ['admin', 'workspaces', query],
    queryFn: ({ signal }) => api.get('admin/workspaces', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export function useDeleteWorkspace() {
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn: (id: number) => api.delete('admin/workspaces/{id}', { path: { id } }), onSuccess: invalidate });
}

/** Admin → Health: live, so it is asked again every 30 seconds while the page is open. */
export function useAdminHealth() {
  return useQuery({ queryKey: ['admin', 'health'], queryFn: ({ signal }) => api.get('admin/health', { signal }), refetchInterval: 30_000 });
}

export function useDashboard() {
  return useQuery({ queryKey: ['admin', 'dashboard'], queryFn: ({ signal }) => api.get('admin/dashboard', { query: { days: 30 }, signal }) });
}

// Plans and subscriptions (issue 17, section 5): amounts travel in minor units.
export type AdminPlan = NonNullable<ReturnType<typeof usePlans>['data']>[number];
export type PlanBody = ApiBody<'admin/plans', 'post'>;
export type PlanUpdate = ApiBody<'admin/plans/{id}', 'put'>;
export type PriceBody = ApiBody<'admin/plans/{id}/prices', 'post'>;
export type SubscriptionQuery = ApiQuery<'admin/subscriptions', 'get'>;

export function usePlans() {
  return useQuery({ queryKey: ['admin', 'plans'], queryFn: ({ signal }) => api.get('admin/plans', { signal }).then((r) => r.plans) });
}

/** Plans decide the public pricing page too: its list is read again after a change. */
function useInvalidatePlans() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: adminKeys.all }), client.invalidateQueries({ queryKey: ['billing'] })]);
}

export function useSavePlan(id: number | null) {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (body: PlanBody | PlanUpdate) =>
      id === null ? api.post('admin/plans', body as PlanBody) : api.put('admin/plans/{id}', body as PlanUpdate, { path: { id } }),
    onSuccess: invalidate,
  });
}

export function useAddPrice(planId: number) {
  const invalidate = useInvalidatePlans();
  return useMutation({ mutationFn: (body: PriceBody) => api.post('admin/plans/{id}/prices', body, { path: { id: planId } }), onSuccess: invalidate });
}

export function useDeletePrice(planId: number) {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (priceId: number) => api.delete('admin/plans/{id}/prices/{priceId}', { path: { id: planId, priceId } }),
    onSuccess: invalidate,
  });
}

export function useAdminSubscriptions(query: SubscriptionQuery) {
  return useQuery({
    queryKey: ['admin', 'subscriptions', query],
    queryFn: ({ signal }) => api.get('admin/subscriptions', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export function useCancelSubscription() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: ({ id, atPeriodEnd }: { id: number; atPeriodEnd: boolean }) =>
      api.post('admin/subscriptions/{id}/cancel', { at_period_end: atPeriodEnd }, { path: { id } }),
    onSuccess: invalidate,
  });
}
