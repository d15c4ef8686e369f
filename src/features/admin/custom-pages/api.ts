import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/http';
import type { ApiBody, ApiQuery, ApiResponse } from '../../../api/typed-paths';
import { adminKeys } from '../api';

export type PageQuery = ApiQuery<'admin/custom-pages', 'get'>;
export type PageBody = ApiBody<'admin/custom-pages', 'post'>;
export type AdminPage = ApiResponse<'admin/custom-pages/{id}', 'get'>['page'];

const keys = {
  list: (query: object) => [...adminKeys.all, 'custom-pages', query] as const,
  one: (id: number) => [...adminKeys.all, 'custom-page', id] as const,
};

export function useAdminPages(query: PageQuery) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get('admin/custom-pages', { query, signal }).then((r) => r.pagination),
    placeholderData: (previous) => previous,
  });
}

export function useAdminPage(id: number | null) {
  return useQuery({
    queryKey: keys.one(id ?? 0),
    queryFn: ({ signal }) => api.get('admin/custom-pages/{id}', { path: { id: id ?? 0 }, signal }).then((r) => r.page),
    enabled: id !== null,
  });
}

/** Saving also refreshes the public copy the app may hold. */
export function useSavePage(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PageBody) =>
      (id === null ? api.post('admin/custom-pages', body) : api.put('admin/custom-pages/{id}', body, { path: { id } })).then((r) => r.page),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: adminKeys.all });
      await client.invalidateQueries({ queryKey: ['custom-pages'] });
    },
  });
}

export function useDeletePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete('admin/custom-pages/{id}', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
