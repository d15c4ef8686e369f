import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import type { ApiBody, ApiResponse } from '../../api/typed-paths';
import { queryKeys } from '../../api/query-keys';

// Localizations, themes and the appearance editor (server/modules/admin/{localizations,themes,appearance}).
export const appearanceKeys = {
  localizations: ['admin', 'localizations'] as const,
  lines: (id: number, query: object) => ['admin', 'localizations', id, 'lines', query] as const,
  themes: ['admin', 'themes'] as const,
  appearance: ['admin', 'appearance'] as const,
};

export type AdminLocalization = ApiResponse<'admin/localizations', 'get'>['localizations'][number];
export type LinesPage = ApiResponse<'admin/localizations/{id}/lines', 'get'>;
export type Line = LinesPage['pagination']['data'][number];
export type ThemeBody = ApiBody<'admin/themes', 'post'>;
export type AppearanceBody = ApiBody<'admin/appearance', 'put'>;
export type AppearanceValues = ApiResponse<'admin/appearance', 'get'>['values'];

/** Languages, lines, themes and branding all shape the bootstrap data: a change is read again at once. */
function useAfterChange() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['admin'] });
    void client.invalidateQueries({ queryKey: queryKeys.bootstrap });
  };
}

export function useLocalizations() {
  return useQuery({
    queryKey: appearanceKeys.localizations,
    queryFn: ({ signal }) => api.get('admin/localizations', { signal }).then((r) => r.localizations),
  });
}

export function useCreateLocalization() {
  const done = useAfterChange();
  return useMutation({ mutationFn: (body: ApiBody<'admin/localizations', 'post'>) => api.post('admin/localizations', body), onSuccess: done });
}

export function useUpdateLocalization() {
  const done = useAfterChange();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & ApiBody<'admin/localizations/{id}', 'put'>) => api.put('admin/localizations/{id}', body, { path: { id } }),
    onSuccess: done,
  });
}

export function useDeleteLocalization() {
  const done = useAfterChange();
  return useMutation({ mutationFn: (id: number) => api.delete('admin/localizations/{id}', { path: { id } }), onSuccess: done });
}

export interface LinesQuery {
  page: number;
  perPage: number;
  query?: string;
  untranslated?: 'true';
}

export function useLines(id: number, query: LinesQuery) {
  return useQuery({
    queryKey: appearanceKeys.lines(id, query),
    queryFn: ({ signal }) => api.get('admin/localizations/{id}/lines', { path: { id }, query, signal }),
    placeholderData: (previous) => previous,
  });
}

export function useSaveLines(id: number) {
  const done = useAfterChange();
  return useMutation({
    mutationFn: (lines: Record<string, string | null>) => api.put('admin/localizations/{id}/lines', { lines }, { path: { id } }),
    onSuccess: done,
  });
}

export function exportLocalization(id: number) {
  return api.get('admin/localizations/{id}/export', { path: { id } });
}

export function useImportLocalization() {
  const done = useAfterChange();
  return useMutation({
    mutationFn: ({ id, lines }: { id: number; lines: Record<string, unknown> }) => api.post('admin/localizations/{id}/import', { lines }, { path: { id } }),
    onSuccess: done,
  });
}

export function useThemes() {
  return useQuery({ queryKey: appearanceKeys.themes, queryFn: ({ signal }) => api.get('admin/themes', { signal }) });
}

export function useSaveTheme() {
  const done = useAfterChange();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ThemeBody }) =>
      id === null ? api.post('admin/themes', body) : api.put('admin/themes/{id}', body, { path: { id } }),
    onSuccess: done,
  });
}

export function useDeleteTheme() {
  const done = useAfterChange();
  return useMutation({ mutationFn: (id: number) => api.delete('admin/themes/{id}', { path: { id } }), onSuccess: done });
}

export function useAppearance() {
  return useQuery({ queryKey: appearanceKeys.appearance, queryFn: ({ signal }) => api.get('admin/appearance', { signal }).then((r) => r.values) });
}

export function useSaveAppearance() {
  const done = useAfterChange();
  return useMutation({ mutationFn: (body: AppearanceBody) => api.put('admin/appearance', body), onSuccess: done });
}

export function useUploadBranding() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.postForm('admin/appearance/uploads', form);
    },
  });
}
