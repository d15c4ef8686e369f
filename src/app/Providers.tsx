import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { createPersistOptions, flushPersistedCache } from '../offline/persister';

// Bump when the persisted shape changes so stale caches are dropped.
const CACHE_BUSTER = 'v1';

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
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
    <PersistQueryClientProvider client={client} persistOptions={persistOptions}>
      {children}
    </PersistQueryClientProvider>
  );
}
