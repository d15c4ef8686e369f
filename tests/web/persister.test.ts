import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/api/query-client';
import { queryKeys } from '../../src/api/query-keys';
import { flushPersistedCache, PERSIST_KEY } from '../../src/offline/persister';
import { makeBootstrap, makeUser } from './fixtures';

describe('persisted query cache', () => {
  beforeEach(() => localStorage.clear());

  it('flushes synchronously in the format the persister restores, successful queries only', async () => {
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser() }));
    // A query that never succeeded has nothing worth repainting.
    void client.prefetchQuery({ queryKey: ['pending'], queryFn: () => new Promise(() => undefined) });

    flushPersistedCache(client, 'v1');
    expect(localStorage.getItem(PERSIST_KEY)).not.toBeNull();

    const restored = await createSyncStoragePersister({ storage: localStorage, key: PERSIST_KEY }).restoreClient();
    expect(restored?.buster).toBe('v1');
    const keys = restored?.clientState.queries.map((q) => q.queryKey);
    expect(keys).toEqual([queryKeys.bootstrap]);
    const data = restored?.clientState.queries[0]?.state.data as { user: { email: string } };
    expect(data.user.email).toBe('ada@example.com');
  });
});
