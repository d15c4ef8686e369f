import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Bootstrap } from '../api/bootstrap-types';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { setBootstrap, takeInlineBootstrap } from '../features/bootstrap/store';
import { createPersistOptions, flushPersistedCache, markRestoredStale } from '../offline/persister';

// Bump when the persisted shape changes so stale caches are dropped.
const CACHE_BUSTER = 'v1';

/** `inlineBootstrap`: the page's bootstrap data when the entry has already taken it out of the page. */
export function Providers({ client, inlineBootstrap, children }: { client: QueryClient; inlineBootstrap?: Bootstrap | null; children: ReactNode }) {
  const [persistOptions] = useState(() => createPersistOptions(CACHE_BUSTER));
  useEffect(() => {
    const flush = () => flushPersistedCache(client, CACHE_BUSTER);
    const onVisibility = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [client]);
  return (
    <PersistQueryClientProvider client={client} persistOptions={persistOptions} onSuccess={() => restored(client, inlineBootstrap)}>
      {children}
    </PersistQueryClientProvider>
  );
}

function restored(client: QueryClient, inlineBootstrap: Bootstrap | null | undefined): void {
  void markRestoredStale(client);
  seedInlineBootstrap(client, inlineBootstrap);
}

/**
 * The bootstrap data the server wrote into this page is newer than any copy
 * restored from the device (an admin may have saved a theme or a menu since):
 * it replaces the restored one, which would otherwise count as fresh and
 * never be asked for again. Without a restored copy the first fetch takes it.
 */
function seedInlineBootstrap(client: QueryClient, taken: Bootstrap | null | undefined): void {
  const inline = taken ?? takeInlineBootstrap();
  if (inline) setBootstrap(client, inline);
}
