import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import type { ApiBody, ApiResponse } from '../../../api/typed-paths';
import { adminKeys } from '../api';

export type MenuBody = ApiBody<'admin/menus', 'post'>;
export type StoredMenu = ApiResponse<'admin/menus', 'get'>['menus'][number];
export type MenuPosition = ApiResponse<'admin/menus', 'get'>['positions'][number];

const key = [...adminKeys.all, 'menus'] as const;

export function useAdminMenus() {
  return useQuery({ queryKey: key, queryFn: ({ signal }) => api.get('admin/menus', { signal }) });
}

/** After a change the shell's menus come from fresh bootstrap data. */
function useRefresh() {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: key });
    await client.invalidateQueries({ queryKey: queryKeys.bootstrap });
  };
}

export function useSaveMenu(id: number | null) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: MenuBody) => (id === null ? api.post('admin/menus', body) : api.put('admin/menus/{id}', body, { path: { id } })).then((r) => r.menu),
    onSuccess: refresh,
  });
}

export function useDeleteMenu() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: number) => api.delete('admin/menus/{id}', { path: { id } }), onSuccess: refresh });
}
