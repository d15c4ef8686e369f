// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { blobKey, offlineCacheName } from '../../../../src/offline/pins/bytes';
import { diffManifest } from '../../../../src/offline/pins/diff';
import { byteRouteOf, offlineResponse } from '../../../../src/offline/pins/serve';
import type { ManifestEntry, OfflineEntry } from '../../../../src/offline/pins/types';
import { userDatabase } from '../../../../src/offline/user-db';
import { MemoryCaches } from './fakes';

const folder = (id: string, parentId: string | null): ManifestEntry => ({
  id,
  parentId,
  type: 'folder',
  name: id,
  mime: null,
  size: 0,
  sha256: null,
  updatedAt: 't',
  canDownload: true,
  hasThumbnail: false,
});
const file = (id: string, parentId: string, sha256: string, extra: Partial<ManifestEntry> = {}): ManifestEntry => ({
  id,
  parentId,
  type: 'file',
  name: `${id}.txt`,
  mime: 'text/plain',
  size: 10,
  sha256,
  updatedAt: `t-${sha256}`,
  canDownload: true,
  hasThumbnail: false,
  ...extra,
});

/** What the device holds after a complete sync of a manifest. */
function synced(rootId: string, entries: ManifestEntry[], rootIds = [rootId]): OfflineEntry[] {
  return entries.map((entry) => ({
    entryId: entry.id,
    workspaceId: null,
    type: entry.type,
    name: entry.name,
    parentId: entry.parentId,
    mime: entry.mime,
    size: entry.size,
    version: entry.sha256,
    updatedAt: entry.updatedAt,
    rootIds,
    storedAt: 1,
    thumbnailStored: entry.hasThumbnail,
  }));
}

describe('the diff of a pin against its new manifest', () => {
  const root = folder('r', '0');
  const sub = folder('s', 'r');
  const a = file('a', 'r', 'va');
  const b = file('b', 's', 'vb', { hasThumbnail: true });

  it('on a first sync, fetches every downloadable file, the thumbnails and every folder listing', () => {
    const diff = diffManifest('r', null, { root, entries: [sub, a, b, file('c', 's', 'vc', { canDownload: false })] }, []);
    expect(diff.downloads.map((row) => row.entryId)).toEqual(['a', 'b']);
    expect(diff.thumbnails.map((row) => row.entryId)).toEqual(['b']);
    expect(diff.changedFolders.sort()).toEqual(['r', 's']);
    expect(diff.upserts).toHaveLength(5);
    expect(diff.removed).toEqual([]);
  });

  it('changes nothing when nothing changed', () => {
    const entries = [sub, a, b];
    const diff = diffManifest('r', null, { root, entries }, synced('r', [root, ...entries]));
    expect(diff).toEqual({ upserts: [], removed: [], released: [], downloads: [], thumbnails: [], changedFolders: [], replacedVersions: [] });
  });

  it('fetches a changed file, releases its old version, and lists its folder again', () => {
    const diff = diffManifest('r', null, { root, entries: [sub, file('a', 'r', 'va2'), b] }, synced('r', [root, sub, a, b]));
    expect(diff.downloads.map((row) => [row.entryId, row.version])).toEqual([['a', 'va2']]);
    expect(diff.replacedVersions).toEqual(['va']);
    expect(diff.changedFolders).toEqual(['r']);
  });

  it('removes what left the pin, or only releases it when another pin still holds it', () => {
    const held = [...synced('r', [root, sub, a]), ...synced('r', [b], ['r', 's'])];
    const diff = diffManifest('r', null, { root, entries: [] }, held);
    expect(diff.removed.map((row) => row.entryId).sort()).toEqual(['a', 's']);
    expect(diff.released).toEqual([expect.objectContaining({ entryId: 'b', rootIds: ['s'] })]);
    expect(diff.changedFolders).toEqual(['r']);
  });

  it('adds this pin to an entry another pin already holds, without fetching it again', () => {
    const diff = diffManifest('r', null, { root, entries: [sub, b] }, [...synced('s', [sub, b], ['s'])]);
    expect(diff.downloads.map((row) => row.entryId)).toEqual([]);
    expect(diff.upserts.find((row) => row.entryId === 'b')?.rootIds).toEqual(['s', 'r']);
  });
});

describe('the worker answering byte addresses from the device', () => {
  it("knows the app's preview, thumbnail and one-file download addresses, not a zip of several", () => {
    const at = (path: string) => byteRouteOf(new URL(path, 'https://drive.test'));
    expect(at('/api/v1/file-entries/abc/preview?workspaceId=3')).toEqual({ kind: 'preview', entryId: 'abc' });
    expect(at('/api/v1/file-entries/abc/thumbnail')).toEqual({ kind: 'thumbnail', entryId: 'abc' });
    expect(at('/api/v1/file-entries/download?hashes=abc')).toEqual({ kind: 'download', entryId: 'abc' });
    expect(at('/api/v1/file-entries/download?hashes=abc,def')).toBeNull();
    expect(at('/api/v1/drive/file-entries')).toBeNull();
  });

  it('answers whole, by range (media and PDF viewers ask so), 416 past the end, and nothing for what it does not hold', async () => {
    const userId = 'serve-1';
    const origin = 'https://drive.test';
    const caches = new MemoryCaches();
    await userDatabase(userId).offlineEntries.bulkPut([
      { ...synced('r', [file('clip', 'r', 'vclip', { mime: 'video/mp4', name: 'clip.mp4' })])[0]! },
      { ...synced('r', [file('page', 'r', 'vpage', { mime: 'text/html', name: 'page.html' })])[0]! },
      { ...synced('r', [file('later', 'r', 'vlater')])[0]!, storedAt: null },
    ]);
    const cache = await caches.open(offlineCacheName(userId));
    await cache.put(blobKey(origin, 'vclip'), new Response('0123456789'));
    await cache.put(blobKey(origin, 'vpage'), new Response('<script>alert(1)</script>'));
    const ask = (path: string, range?: string) => {
      const request = new Request(`${origin}${path}`, { headers: range ? { Range: range } : {} });
      return offlineResponse(request, byteRouteOf(new URL(request.url))!, userId, caches, origin);
    };

    const whole = (await ask('/api/v1/file-entries/clip/preview'))!;
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Content-Type')).toBe('video/mp4');
    expect(await whole.text()).toBe('0123456789');
    const part = (await ask('/api/v1/file-entries/clip/preview', 'bytes=2-5'))!;
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');
    expect(await (await ask('/api/v1/file-entries/clip/preview', 'bytes=7-'))!.text()).toBe('789');
    expect(await (await ask('/api/v1/file-entries/clip/preview', 'bytes=-3'))!.text()).toBe('789');
    expect((await ask('/api/v1/file-entries/clip/preview', 'bytes=10-'))!.status).toBe(416);

    const download = (await ask('/api/v1/file-entries/download?hashes=clip'))!;
    expect(download.headers.get('Content-Disposition')).toMatch(/^attachment; filename="clip.mp4"/);
    // Markup is shown as its source, never run: as the server's preview does.
    const page = (await ask('/api/v1/file-entries/page/preview'))!;
    expect(page.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(page.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect(page.headers.get('X-Content-Type-Options')).toBe('nosniff');

    expect(await ask('/api/v1/file-entries/later/preview')).toBeNull();
    expect(await ask('/api/v1/file-entries/unknown/preview')).toBeNull();
    expect(await ask('/api/v1/file-entries/clip/thumbnail')).toBeNull();
  });
});
