import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { UploadItem } from '../../src/offline/queues/uploads/types';
import { queuedUpload } from '../fixtures/upload-item';
import { registerFreshUser } from './drive-helpers';
import { waitForServiceWorker } from './helpers';

// The queue's page side as uploads.spec.ts drives it (items and bytes into
// IndexedDB, then a word to the worker), for large files: their bytes come
// from a seeded xorshift32 stream, not a short repeating pattern, so a chunk
// stored at the wrong offset changes the file's sha256.

export const MB = 1024 * 1024;

export interface LargeFileSpec {
  name: string;
  size: number;
  chunkSize: number;
  seed: number;
}

/**
 * The test file's bytes in Node. The page builds the same stream in
 * `putQueued` (its copy must stay in step with this one: a difference
 * shows up as a sha256 mismatch, never as a false pass).
 */
export function patternBytes(size: number, seed: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let x = seed | 0 || 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x;
  }
  return Buffer.from(words.buffer, 0, size);
}

export function expectedSha256(spec: Pick<LargeFileSpec, 'size' | 'seed'>): string {
  return createHash('sha256').update(patternBytes(spec.size, spec.seed)).digest('hex');
}

export async function currentUserId(page: Page): Promise<string> {
  const response = await page.request.get('/api/v1/bootstrap-data');
  const body = (await response.json()) as { data: { user: { id: number } } };
  return String(body.data.user.id);
}

/** A fresh user on an empty drive, with the service worker in control. */
export async function ready(page: Page): Promise<void> {
  await registerFreshUser(page);
  await waitForServiceWorker(page);
}

function itemFor(spec: LargeFileSpec, userId: string): UploadItem {
  return queuedUpload({ id: `e2e-large-${Date.now()}-${spec.name}`, userId, name: spec.name, size: spec.size, method: 'tus', chunkSize: spec.chunkSize });
}

/** How a test file's bytes are made in the page: `(i * 31 + seed) & 0xff`, or the xorshift32 stream of patternBytes. */
export type BytePattern = { kind: 'linear'; seed: number } | { kind: 'xorshift'; seed: number };

/**
 * What the page client does when files are chosen: each item and its bytes
 * into the queue's IndexedDB (the bytes made in the page, so nothing large
 * crosses the test protocol). The worker's Dexie creates the stores at
 * start-up, so this waits for them.
 */
export async function putQueued(page: Page, queued: { item: UploadItem; bytes: BytePattern }[]): Promise<void> {
  await page.evaluate(async (queued) => {
    const open = () =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('drive-uploads');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    let db = await open();
    for (let i = 0; i < 50 && !db.objectStoreNames.contains('blobs'); i++) {
      db.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      db = await open();
    }
    const files = queued.map(({ item, bytes }) => {
      if (bytes.kind === 'linear') {
        const data = new Uint8Array(item.size);
        for (let i = 0; i < data.length; i++) data[i] = (i * 31 + bytes.seed) & 0xff;
        return new File([data], item.name);
      }
      // The same xorshift32 stream as patternBytes in Node.
      const words = new Uint32Array(Math.ceil(item.size / 4));
      let x = bytes.seed | 0 || 0x9e3779b9;
      for (let i = 0; i < words.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        words[i] = x;
      }
      return new File([new Uint8Array(words.buffer, 0, item.size)], item.name);
    });
    const tx = db.transaction(['items', 'blobs'], 'readwrite');
    queued.forEach(({ item }, index) => {
      tx.objectStore('blobs').put({ id: item.id, blob: files[index] });
      tx.objectStore('items').put(item);
    });
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, queued);
}

/** One large file, queued as the page client does, then a kick. */
export async function enqueueLarge(page: Page, spec: LargeFileSpec): Promise<UploadItem> {
  const userId = await currentUserId(page);
  const item = itemFor(spec, userId);
  await putQueued(page, [{ item, bytes: { kind: 'xorshift', seed: spec.seed } }]);
  await kick(page, userId);
  return item;
}

/** The page client's message after adding items, when the network returns and when a page opens. */
export async function kick(page: Page, userId: string): Promise<void> {
  await page.evaluate(async (userId) => {
    const registration = await navigator.serviceWorker.ready;
    const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
    const xsrfToken = cookie ? decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) : null;
    registration.active?.postMessage({ type: 'session', userId, xsrfToken });
    registration.active?.postMessage({ type: 'uploads:kick' });
  }, userId);
}

/** The item's record as the worker last wrote it to IndexedDB. */
export async function storedItem(page: Page, id: string): Promise<UploadItem | undefined> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('drive-uploads');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const item = await new Promise<UploadItem | undefined>((resolve, reject) => {
      const request = db.transaction('items').objectStore('items').get(id);
      request.onsuccess = () => resolve(request.result as UploadItem | undefined);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return item;
  }, id);
}

/** The sha256 of a root entry's bytes, as GET /file-entries/download returns them. */
export async function downloadedSha256(page: Page, name: string): Promise<string> {
  const listing = (await (await page.request.get('/api/v1/drive/file-entries?folderId=0&perPage=100')).json()) as {
    pagination: { data: { name: string; hash: string }[] };
  };
  const stored = listing.pagination.data.find((entry) => entry.name === name);
  if (!stored) throw new Error(`${name} is not in the root folder`);
  const download = await page.request.get(`/api/v1/file-entries/download?hashes=${stored.hash}`);
  if (!download.ok()) throw new Error(`download of ${name} answered ${download.status()}`);
  return createHash('sha256')
    .update(await download.body())
    .digest('hex');
}
