import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/api/query-client';
import { queryKeys } from '../../src/api/query-keys';
import { driveKeys, driveQueryMeta } from '../../src/features/drive/api/keys';
import { createPersistOptions, flushPersistedCache, markRestoredStale, PERSIST_KEY } from '../../src/offline/persister';
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

  it('leaves out what a feature keeps in IndexedDB (by the flag on the query), keeps the small rest', async () => {
    const client = createQueryClient();
    await client.prefetchQuery({ queryKey: driveKeys.listing(0, 'folder:0'), queryFn: () => ({ pagination: { data: [] } }), meta: driveQueryMeta });
    await client.prefetchQuery({ queryKey: driveKeys.usage, queryFn: () => ({ used: 1, available: null }) });
    flushPersistedCache(client, 'v1');
    const restored = await createSyncStoragePersister({ storage: localStorage, key: PERSIST_KEY }).restoreClient();
    expect(restored?.clientState.queries.map((q) => q.queryKey)).toEqual([driveKeys.usage]);
  });
});

describe('a reload', () => {
  beforeEach(() => localStorage.clear());

  it('asks the server again for what it restored, however recently it was saved (issue 32.6)', async () => {
    const saved = createQueryClient();
    saved.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser() }));
    await saved.prefetchQuery({ queryKey: driveKeys.usage, queryFn: () => ({ used: 1, available: null }) });
    flushPersistedCache(saved, 'v1');

    // The next page load: restored a moment after it was saved, well inside the 30 s freshness.
    const client = createQueryClient();
    const { persistQueryClientRestore } = await import('@tanstack/react-query-persist-client');
    // The persist package pins its own copy of query-core's types; the client is the same at run time.
    type RestoreClient = Parameters<typeof persistQueryClientRestore>[0]['queryClient'];
    await persistQueryClientRestore({ queryClient: client as unknown as RestoreClient, ...createPersistOptions('v1') });
    expect(client.getQueryCache().find({ queryKey: driveKeys.usage })?.state.data).toEqual({ used: 1, available: null });
    await markRestoredStale(client);
    for (const query of client.getQueryCache().getAll()) expect(query.isStale(), JSON.stringify(query.queryKey)).toBe(true);

    let asked = 0;
    await client.fetchQuery({ queryKey: driveKeys.usage, queryFn: () => ++asked && { used: 2, available: null }, staleTime: 30_000 });
    expect(asked).toBe(1);
  });
});

describe('drive query keys', () => {
  it('lead with the workspace, so two workspaces never share a cached listing', () => {
    expect(driveKeys.listing(0, 'folder:0')).not.toEqual(driveKeys.listing(5, 'folder:0'));
    expect(driveKeys.listing(5, 'folder:0').slice(0, driveKeys.all(5).length)).toEqual([...driveKeys.all(5)]);
    expect(driveKeys.listing(0, 'folder:0').slice(0, driveKeys.all(5).length)).not.toEqual([...driveKeys.all(5)]);
  });
});
