import { describe, expect, it } from 'vitest';
import { driveDatabase } from '../../../src/offline/db';
import { NO_SPACE } from '../../../src/offline/pins/space';
import { syncPin, SyncRefused, type SyncDeps } from '../../../src/offline/pins/sync';
import type { OfflineManifest } from '../../../src/offline/pins/types';
import { userDatabase } from '../../../src/offline/user-db';
import { makePin } from './pins';

const SIZE = 600;
const manifest: OfflineManifest = {
  root: {
    id: 'film',
    parentId: null,
    type: 'file',
    name: 'film.mp4',
    mime: 'video/mp4',
    size: SIZE,
    sha256: 'a'.repeat(64),
    updatedAt: '2026-11-27T00:00:00.000Z',
    canDownload: true,
    hasThumbnail: false,
  },
  entries: [],
};

/** A sync of a pinned 600-byte file against a server that answers the manifest and the bytes, counting what it is asked. */
function deps(userId: string, free: number) {
  const asked: string[] = [];
  const stored = new Map<string, Response>();
  const cache = {
    put: async (key: string, response: Response) => void stored.set(key, response),
    match: async (key: string) => stored.get(key),
    delete: async (key: string) => stored.delete(key),
    keys: async () => [],
  } as unknown as Cache;
  const fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(new URL(url).pathname);
    if (url.includes('offline-manifest')) return Response.json(manifest, { headers: { ETag: 'W/"m.1"' } });
    return new Response(new Uint8Array(SIZE), { headers: { 'Content-Type': 'video/mp4' } });
  }) as typeof globalThis.fetch;
  const sync: SyncDeps = {
    http: { fetch, origin: 'http://localhost', getXsrfToken: async () => null },
    db: userDatabase(userId),
    drive: (workspaceId) => driveDatabase(userId, workspaceId),
    cache: async () => cache,
    changed: () => undefined,
    estimate: async () => ({ usage: 1_000_000 - free, quota: 1_000_000 }),
  };
  return { sync, asked, stored };
}

describe('a pin that would not fit', () => {
  it('fails with "no space" once the manifest says what is missing, before a byte is fetched', async () => {
    const { sync, asked } = deps('7200', SIZE - 1);
    const attempt = syncPin(sync, makePin({ id: 'film', userId: '7200', type: 'file' }), () => undefined);
    const refused = await attempt.done.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SyncRefused);
    expect((refused as SyncRefused).message).toBe(NO_SPACE);
    expect(asked).toEqual(['/api/v1/file-entries/film/offline-manifest']);
  });

  it('downloads when it fits', async () => {
    const { sync, asked, stored } = deps('7201', SIZE);
    const result = await syncPin(sync, makePin({ id: 'film', userId: '7201', type: 'file' }), () => undefined).done;
    expect(result).toMatchObject({ bytesStored: SIZE, filesStored: 1, manifestEtag: 'W/"m.1"' });
    expect(asked).toEqual(['/api/v1/file-entries/film/offline-manifest', '/api/v1/file-entries/download']);
    expect(stored.size).toBe(1);
  });
});
