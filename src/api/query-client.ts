import { QueryClient } from '@tanstack/react-query';
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
