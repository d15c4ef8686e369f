import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver loaded on the first check (submit, or a change after one), not with the page: a schema
 * brings zod (~35 KB gzip), which a page's first paint and hydration need not wait for. A failed load
 * (offline) is tried again on the next check.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> & { preload(): Promise<unknown> } {
  let loading: Promise<Resolver<T>> | null = null;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  const resolver: Resolver<T> = async (values, context, options) => (await loaded())(values, context, options);
  // Once the page runs (not before its first paint): a submit then seldom waits for the schema.
  return Object.assign(resolver, { preload: () => loaded().catch(() => undefined) });
}
