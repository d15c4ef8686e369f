import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../../api/api-error';
import { api } from '../../api/http';
import type { ApiResponse } from '../../api/typed-paths';

export type PublicPage = ApiResponse<'custom-pages/{slug}', 'get'>;
export type Seo = PublicPage['seo'];

export const customPageKeys = { page: (slug: string) => ['custom-pages', slug] as const };

/** A custom page with its head tags (spec §7 GET custom-pages/{slug}). Only a lost connection is retried; answers are final. */
export function useCustomPage(slug: string) {
  return useQuery({
    queryKey: customPageKeys.page(slug),
    queryFn: ({ signal }) => api.get('custom-pages/{slug}', { path: { slug }, signal }),
    retry: (count, error) => isApiError(error) && error.kind === 'network' && count < 2,
  });
}
