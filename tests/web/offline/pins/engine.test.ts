// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { driveDatabase } from '../../../../src/offline/db';
import { folderListingKey, readListing } from '../../../../src/offline/listing-cache';
import { blobKey, offlineCacheName, thumbnailKey } from '../../../../src/offline/pins/bytes';
import { PinEngine } from '../../../../src/offline/pins/engine';
import type { PinEvent } from '../../../../src/offline/pins/protocol';
import { pinState, type PinItem } from '../../../../src/offline/pins/types';
import { MemorySession } from '../../../../src/offline/queues/session';
import { userDatabase } from '../../../../src/offline/user-db';
import { makePin } from '../../offline-files/pins';
import { FakeDrive, MemoryCaches, sha } from './fakes';

// The sync engine against a drive that answers as the server does, with
// IndexedDB (fake-indexeddb) and Cache Storage (in memory) as on a device.

let counter = 0;
let userId: string;
let drive: FakeDrive;
let caches: MemoryCaches;
let events: PinEvent[];
let engine: PinEngine;
let clock: number;

/** A pin just made, not yet synced. */
const pinOf = (entryId: string, type: 'folder' | 'file' = 'folder'): PinItem => makePin({ id: entryId, userId, status: 'pending', type });

async function pin(entryId: string, type: 'folder' | 'file' = 'folder'): Promise<void> {
  await userDatabase(userId).pins.put(pinOf(entryId, type));
  await engine.apply({ type: 'pins:refresh' });
}

const stored = () => caches.stored(offlineCacheName(userId));
const pinRow = async (id: string) => (await userDatabase(userId).pins.get(id))!;

beforeEach(async () => {
  counter += 1;
  userId = `pins-${counter}`;
  drive = new FakeDrive();
  caches = new MemoryCaches();
  events = [];
  clock = 1_000_000;
  const session = new MemorySession();
  await session.setUser(userId);
  engine = new PinEngine({
    http: { fetch: drive.fetch, origin: drive.origin, getXsrfToken: async () => 'xsrf' },
    caches,
    notify: (event) => events.push(event),
    isOnline: () => !drive.offline,
    session,
    now: () => clock,
    sync: { chunkBytes: 8, parallel: 2 },
  });
  drive.folder('0', null, 'root');
  drive.folder('trip', '0', 'Trip');
  drive.folder('photos', 'trip', 'Photos');
  drive.file({ id: 'plan', parentId: 'trip', name: 'plan.txt', content: 'the plan for the trip' });
  drive.file({ id: 'beach', parentId: 'photos', name: 'beach.png', content: 'pretend these are png bytes', mime: 'image/png' });
  drive.file({
    id: 'notes',
    parentId: 'trip',
    name: 'notes.docx',
    content: 'docx bytes',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  });
  drive.file({ id: 'outside', parentId: '0', name: 'outside.txt', content: 'not pinned' });
});

describe('pinning a folder', () => {
  it('keeps its whole subtree: bytes by version, thumbnails, listings, and the documents the editor opens', async () => {
    await pin('trip');
    const pinned = await pinRow('trip');
    expect(pinState(pinned)).toBe('up-to-date');
    expect(pinned).toMatchObject({ filesTotal: 3, filesStored: 3, bytesTotal: 21 + 27 + 10, bytesStored: 58, error: null });
    expect(pinned.manifestEtag).toBe(`W/"${drive.version}"`);
    const origin = drive.origin;
    expect(stored()).toEqual(
      [
        blobKey(origin, sha('the plan for the trip')),
        blobKey(origin, sha('pretend these are png bytes')),
        blobKey(origin, sha('docx bytes')),
        thumbnailKey(origin, 'beach', sha('pretend these are png bytes')),
      ].sort(),
    );
    const cache = await caches.open(offlineCacheName(userId));
    expect(await (await cache.match(blobKey(origin, sha('the plan for the trip'))))!.text()).toBe('the plan for the trip');
    // Listings of every folder in the pin are where the drive's folder view reads them offline.
    const listing = await readListing(driveDatabase(userId, 0), folderListingKey('trip'));
    expect(listing?.entries.map((e) => e.id).sort()).toEqual(['notes', 'photos', 'plan']);
    expect((await readListing(driveDatabase(userId, 0), folderListingKey('photos')))?.entries.map((e) => e.id)).toEqual(['beach']);
    expect(await userDatabase(userId).documents.get('notes')).toMatchObject({ name: 'notes.docx', version: sha('docx bytes') });
    // Nothing outside the pin was fetched.
    expect(drive.requests.some((r) => r.path.includes('outside'))).toBe(false);
    expect(events.some((e) => e.type === 'offline-changed' && e.folderIds.includes('trip'))).toBe(true);
  });

  it('costs one request per pin when nothing changed', async () => {
    await pin('trip');
    drive.requests = [];
    clock += 1;
    await engine.apply({ type: 'pins:refresh' });
    expect(drive.requests.map((r) => r.path)).toEqual(['/api/v1/file-entries/trip/offline-manifest']);
    expect(drive.requests[0]!.headers['if-none-match']).toBe(`W/"${drive.version}"`);
    expect(pinState(await pinRow('trip'))).toBe('up-to-date');
  });

  it('fetches what changed on the server and drops what was deleted, bytes included', async () => {
    await pin('trip');
    const oldPlan = blobKey(drive.origin, sha('the plan for the trip'));
    drive.file({ id: 'plan', parentId: 'trip', name: 'plan.txt', content: 'a new plan' });
    drive.remove('beach');
    drive.bytesSent = 0;
    await engine.apply({ type: 'pins:refresh' });
    expect(stored()).not.toContain(oldPlan);
    expect(stored()).toContain(blobKey(drive.origin, sha('a new plan')));
    expect(stored().some((key) => key.includes(sha('pretend these are png bytes')))).toBe(false);
    expect(await userDatabase(userId).offlineEntries.get('beach')).toBeUndefined();
    expect(drive.bytesSent).toBe('a new plan'.length);
    expect((await readListing(driveDatabase(userId, 0), folderListingKey('photos')))?.entries).toEqual([]);
    expect(await pinRow('trip')).toMatchObject({ filesTotal: 2, filesStored: 2, status: 'completed' });
  });

  it('stores one version once, whatever number of entries or pins hold it', async () => {
    drive.file({ id: 'copy', parentId: 'photos', name: 'plan copy.txt', content: 'the plan for the trip' });
    await pin('trip');
    await userDatabase(userId).pins.put({ ...pinOf('photos'), createdAt: 2 });
    await engine.apply({ type: 'pins:refresh' });
    expect(stored().filter((key) => key.includes(sha('the plan for the trip')))).toHaveLength(1);
    // Unpinning the outer folder keeps what the inner pin still holds.
    await engine.apply({ type: 'pins:unpin', userId, ids: ['trip'] });
    expect(stored()).toContain(blobKey(drive.origin, sha('the plan for the trip')));
    expect(stored()).toContain(blobKey(drive.origin, sha('pretend these are png bytes')));
    expect(stored()).not.toContain(blobKey(drive.origin, sha('docx bytes')));
    expect(await userDatabase(userId).offlineEntries.get('plan')).toBeUndefined();
    expect((await userDatabase(userId).offlineEntries.get('copy'))?.rootIds).toEqual(['photos']);
  });
});

describe('without the network', () => {
  it('waits, and syncs when the network returns', async () => {
    drive.offline = true;
    await pin('trip');
    expect(pinState(await pinRow('trip'))).toBe('waiting');
    drive.offline = false;
    await engine.apply({ type: 'pins:refresh' });
    expect(pinState(await pinRow('trip'))).toBe('up-to-date');
  });

  it('resumes an interrupted download from the byte it reached, by Range with If-Range', async () => {
    drive.file({ id: 'big', parentId: 'trip', name: 'big.txt', content: 'x'.repeat(40) + 'y'.repeat(40) });
    drive.cutAfter = 20;
    await userDatabase(userId).pins.put(pinOf('big', 'file'));
    await engine.apply({ type: 'pins:refresh' });
    expect(pinState(await pinRow('big'))).toBe('waiting');
    // Every byte received before the cut was kept; the next request asks for the rest of this version only.
    expect((await userDatabase(userId).offlinePartials.toArray()).reduce((n, p) => n + p.blob.size, 0)).toBe(20);
    drive.requests = [];
    await engine.apply({ type: 'pins:refresh' });
    const download = drive.requests.find((r) => r.path.includes('download'))!;
    expect(download.headers.range).toBe('bytes=20-');
    expect(download.headers['if-range']).toBe(`"${sha('x'.repeat(40) + 'y'.repeat(40))}"`);
    const cache = await caches.open(offlineCacheName(userId));
    expect(await (await cache.match(blobKey(drive.origin, sha('x'.repeat(40) + 'y'.repeat(40)))))!.text()).toBe('x'.repeat(40) + 'y'.repeat(40));
    expect(await userDatabase(userId).offlinePartials.count()).toBe(0);
    expect(pinState(await pinRow('big'))).toBe('up-to-date');
    expect(drive.bytesSent).toBe(80);
  });

  it('drops the kept half of a version the server no longer has, and fetches the new one whole', async () => {
    drive.file({ id: 'big', parentId: 'trip', name: 'big.txt', content: 'a'.repeat(50) });
    drive.cutAfter = 20;
    await userDatabase(userId).pins.put(pinOf('big', 'file'));
    await engine.apply({ type: 'pins:refresh' });
    drive.file({ id: 'big', parentId: 'trip', name: 'big.txt', content: 'b'.repeat(30) });
    await engine.apply({ type: 'pins:refresh' });
    const cache = await caches.open(offlineCacheName(userId));
    expect(await (await cache.match(blobKey(drive.origin, sha('b'.repeat(30)))))!.text()).toBe('b'.repeat(30));
    expect(stored().filter((key) => key.includes('/files/'))).toHaveLength(1);
    expect(await userDatabase(userId).offlinePartials.count()).toBe(0);
  });
});

describe('a refused pin', () => {
  it("fails with the server's reason, and is tried again on the next refresh", async () => {
    drive.refuse = { status: 422, message: 'This folder holds more than 25000 items' };
    await pin('trip');
    expect(await pinRow('trip')).toMatchObject({ status: 'failed', error: 'This folder holds more than 25000 items' });
    expect(stored()).toEqual([]);
    drive.refuse = null;
    await engine.apply({ type: 'pins:refresh' });
    expect(pinState(await pinRow('trip'))).toBe('up-to-date');
  });
});

describe('leaving the device', () => {
  it('a pinned entry deleted on the server takes its bytes with it', async () => {
    await pin('plan', 'file');
    expect(stored()).toHaveLength(1);
    drive.remove('plan');
    await engine.apply({ type: 'pins:refresh' });
    expect(stored()).toEqual([]);
    expect(await pinRow('plan')).toMatchObject({ status: 'failed', error: 'gone' });
  });

  it("wipe removes every pin, record and byte of the user, and no other user's", async () => {
    await pin('trip');
    const other = `${userId}-other`;
    const theirs = await caches.open(offlineCacheName(other));
    await theirs.put(blobKey(drive.origin, 'v'), new Response('theirs'));
    await engine.apply({ type: 'pins:wipe', userId });
    expect(caches.caches.has(offlineCacheName(userId))).toBe(false);
    expect(await userDatabase(userId).pins.count()).toBe(0);
    expect(await userDatabase(userId).offlineEntries.count()).toBe(0);
    expect(caches.stored(offlineCacheName(other))).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'pin-removed', userId, ids: ['trip'] });
  });
});
