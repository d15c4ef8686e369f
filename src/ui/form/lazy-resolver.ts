import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver loaded on the first check (submit, or a change after one), not with the page: a schema
 * brings zod (~35 KB gzip), which a page's first paint and hydration need not wait for. A failed load
 * (offline) is tried again on the next check.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> {
  let loading: Promise<Resolver<T>> | null = null;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
