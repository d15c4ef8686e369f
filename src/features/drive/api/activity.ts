import { useInfiniteQuery } from '@tanstack/react-query';
import type { JsonResponse } from '../../../api/api-types';
import { api } from '../../../api/http';
import { activeWorkspaceId } from '../../../api/active-workspace';
import { driveKeys } from './keys';

// An entry's activity (issue 35): who did what to it, newest first, paged by cursor.
export type ActivityRecord = JsonResponse<'/api/v1/file-entries/{id}/activity', 'get'>['data'][number];

export function useEntryActivity(hash: string | null) {
  return useInfiniteQuery({
    queryKey: [...driveKeys.all(activeWorkspaceId()), 'activity', hash ?? ''] as const,
    enabled: hash !== null,
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ signal, pageParam }) =>
      api.get('file-entries/{id}/activity', { path: { id: hash! }, query: pageParam === undefined ? {} : { cursor: pageParam }, signal }),
    getNextPageParam: (page) => (page.next_cursor ? Number(page.next_cursor) : undefined),
  });
}

/** A workspace's activity (its admins'), newest first. */
export function useWorkspaceActivity(workspaceId: number) {
  return useInfiniteQuery({
    queryKey: ['workspace-activity', workspaceId] as const,
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ signal, pageParam }) =>
      api.get('workspace/{workspaceId}/activity', { path: { workspaceId }, query: pageParam === undefined ? {} : { cursor: pageParam }, signal }),
    getNextPageParam: (page) => (page.next_cursor ? Number(page.next_cursor) : undefined),
  });
}
