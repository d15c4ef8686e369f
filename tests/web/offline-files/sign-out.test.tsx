import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { useLogoutMutation } from '../../../src/features/auth/api';
import { offlineCacheName } from '../../../src/offline/pins/bytes';
import { userDatabase } from '../../../src/offline/user-db';
import { makeBootstrap, makeUser } from '../fixtures';
import { makePin } from './pins';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function keepOffline(userId: string) {
  const db = userDatabase(userId);
  await db.pins.put(makePin({ id: `trip-${userId}`, userId, name: 'Trip' }));
  await db.offlineEntries.put({
    entryId: `map-${userId}`,
    workspaceId: null,
    type: 'file',
    name: 'map.pdf',
    parentId: `trip-${userId}`,
    mime: 'application/pdf',
    size: 3,
    version: 'abc',
    updatedAt: '2026-11-27T00:00:00.000Z',
    rootIds: [`trip-${userId}`],
    storedAt: 1,
    thumbnailStored: false,
  });
  await db.offlinePartials.put({ key: 'def:0', version: 'def', index: 0, start: 0, blob: new Blob(['x']) });
  return db;
}

describe('signing out', () => {
  it('removes every pinned byte and record of the user from the device, and no one else’s', async () => {
    const leaving = await keepOffline('7100');
    const staying = await keepOffline('7101');
    // Cache Storage as the browser has it: one cache of pinned bytes per user.
    const deleted: string[] = [];
    const cache = { keys: async () => [], match: async () => undefined, put: async () => undefined, delete: async () => true };
    vi.stubGlobal('caches', {
      open: async () => cache,
      delete: async (name: string) => {
        deleted.push(name);
        return true;
      },
    });
    vi.stubGlobal('fetch', async () => Response.json({ bootstrapData: makeBootstrap() }));

    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: 7100 }) }));
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLogoutMutation(), { wrapper });
    await result.current.mutateAsync();

    expect(await leaving.pins.count()).toBe(0);
    expect(await leaving.offlineEntries.count()).toBe(0);
    expect(await leaving.offlinePartials.count()).toBe(0);
    expect(deleted).toContain(offlineCacheName('7100'));
    expect(deleted).not.toContain(offlineCacheName('7101'));
    expect(await staying.pins.count()).toBe(1);
    expect(await staying.offlineEntries.count()).toBe(1);
    // The guest's bootstrap is stored only after the wipe.
    expect(client.getQueryData<{ user: unknown }>(queryKeys.bootstrap)?.user).toBeNull();
  });
});
