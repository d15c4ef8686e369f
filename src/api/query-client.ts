import { QueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { isApiError } from './api-error';

export const QUERY_STALE_TIME = 30_000;
export const QUERY_GC_TIME = 5 * 60 * 1000;
export const QUERY_RETRIES = 2;
const NEVER_RETRY = [401, 403, 404];

/** Spec §7: at most 2 retries, none for "you may not" or "not there". */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && NEVER_RETRY.includes(error.status)) return false;
  return failureCount < QUERY_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME,
        gcTime: QUERY_GC_TIME,
        retry: shouldRetryQuery,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Refetches what a write that landed outside this page's own mutations made
 * stale (a queued upload or save, a sync of pinned entries). A fetch already in
 * flight began before the write landed (typically the refetch on reconnect,
 * racing the queue that the same `online` event woke), so it must not stand in
 * for a new one: invalidateQueries alone joins such a fetch when the query holds
 * no data yet, which is the case for a listing painted from the device after an
 * offline reload, and its answer lacked the new file.
 */
export async function refetchAfterWrite(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
