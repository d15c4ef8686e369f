import type { DriveDatabase } from '../db';
import { folderListingKey, PINNED_LISTING_SORT, writeListingPage } from '../listing-cache';
import { getFrom, postJson, type HttpDeps } from '../queues/http';
import type { Attempt } from '../queues/engine';
import type { UserDatabase } from '../user-db';
import type { ApiResponse } from '../../api/typed-paths';
import { blobKey, thumbnailKey } from './bytes';
import { diffManifest, keepsBytes } from './diff';
import { NO_SPACE, shortfall } from './space';
import type { OfflineChange } from './protocol';
import type { OfflineEntry, OfflineManifest, PinItem } from './types';

// One sync of one pin: the manifest (one request when nothing changed: the
// server answers 304 to the ETag of the last complete sync), the diff against
// what the device holds, the changed folders' listings, the missing bytes
// (resumed by Range from the chunks an interrupted download left), the
// thumbnails, and the bytes nothing holds any more.

export interface SyncDeps {
  http: HttpDeps;
  db: UserDatabase;
  drive: (workspaceId: number) => DriveDatabase;
  cache: () => Promise<Cache>;
  /** A sync rewrote these folders' listings: the pages refetch them. */
  changed: (change: Omit<OfflineChange, 'userId'>) => void;
  /** Downloads at once (a folder of many small files is bound by round trips, not bandwidth). */
  parallel?: number;
  /** Bytes per stored chunk of a download in flight: what an interruption can lose at most. */
  chunkBytes?: number;
  /** The browser's storage estimate (tests pass their own; absent: the browser's). */
  estimate?: () => Promise<StorageEstimate>;
}

export interface SyncResult {
  manifestEtag: string | null;
  bytesTotal: number;
  bytesStored: number;
  filesTotal: number;
  filesStored: number;
}

/** No answer (offline, server down, session ended): the pin waits for the network. */
export class SyncNetworkError extends Error {
  constructor(message = 'network') {
    super(message);
    this.name = 'SyncNetworkError';
  }
}

/** The server refused (no longer allowed): shown on the pin. */
export class SyncRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SyncRefused';
  }
}

/** The pinned entry is gone (deleted, trashed, no longer shared): its bytes have left the device. */
export class PinGone extends Error {
  constructor() {
    super('gone');
    this.name = 'PinGone';
  }
}

const PARALLEL = 4;
const CHUNK_BYTES = 4 * 1024 * 1024;
const LISTING_PAGE = 500;
const etagOf = (version: string) => `"${version}"`;
const isDocument = (row: OfflineEntry) => row.name.toLowerCase().endsWith('.docx');

async function answered(request: Promise<Response>): Promise<Response> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new SyncNetworkError();
  }
}

/** A refusal says why in the server's words (a folder too large to pin, say), shown on the pin as is. */
async function refusal(response: Response): Promise<Error> {
  if (response.status === 401 || response.status >= 500 || response.status === 429) return new SyncNetworkError(`HTTP ${response.status}`);
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return new SyncRefused(response.status, message);
}

export function syncPin(deps: SyncDeps, pin: PinItem, progress: (changes: Partial<PinItem>) => void): Attempt<SyncResult> {
  const controller = new AbortController();
  return { done: new PinSync(deps, pin, progress, controller.signal).run(), abort: () => controller.abort() };
}

class PinSync {
  private readonly workspaceId: number | null;
  private bytesStored = 0;
  private filesStored = 0;

  constructor(
    private readonly deps: SyncDeps,
    private readonly pin: PinItem,
    private readonly progress: (changes: Partial<PinItem>) => void,
    private readonly signal: AbortSignal,
  ) {
    this.workspaceId = pin.workspaceId;
  }

  async run(): Promise<SyncResult> {
    const { pin } = this;
    const response = await answered(
      getFrom(this.deps.http, `file-entries/${encodeURIComponent(pin.entryId)}/offline-manifest`, {
        workspaceId: this.workspaceId,
        headers: pin.manifestEtag ? { 'If-None-Match': pin.manifestEtag } : {},
        signal: this.signal,
      }),
    );
    if (response.status === 304) {
      return {
        manifestEtag: pin.manifestEtag,
        bytesTotal: pin.bytesTotal,
        bytesStored: pin.bytesStored,
        filesTotal: pin.filesTotal,
        filesStored: pin.filesStored,
      };
    }
    if (response.status === 404 || response.status === 410) {
      await this.dropAll();
      throw new PinGone();
    }
    if (!response.ok) throw await refusal(response);
    const manifest = (await response.json()) as OfflineManifest;
    const etag = response.headers.get('ETag');
    const files = [manifest.root, ...manifest.entries].filter(keepsBytes);
    const bytesTotal = files.reduce((sum, file) => sum + file.size, 0);
    // The old ETag no longer says what the device holds until this sync completes.
    this.progress({ manifestEtag: null, name: manifest.root.name, bytesTotal, filesTotal: files.length });

    const diff = await this.applyDiff(manifest);
    const missing = new Set(diff.downloads.map((row) => row.entryId));
    for (const file of files) {
      if (missing.has(file.id)) continue;
      this.bytesStored += file.size;
      this.filesStored += 1;
    }
    this.progress({ bytesStored: this.bytesStored, filesStored: this.filesStored });

    // Before a byte is fetched: what is missing must fit (resumed downloads count only what is left).
    const wanted = new Set(diff.downloads.map((row) => row.version));
    const partial = (await this.deps.db.offlinePartials.toArray()).reduce((sum, part) => sum + (wanted.has(part.version) ? part.blob.size : 0), 0);
    const needed = diff.downloads.reduce((sum, row) => sum + row.size, 0) - partial;
    if ((await shortfall(needed, this.deps.estimate)) > 0) throw new SyncRefused(507, NO_SPACE);

    await this.refreshListings(diff.changedFolders);
    await this.inParallel(diff.downloads, (row) => this.download(row));
    await this.inParallel(diff.thumbnails, (row) => this.thumbnail(row));
    await this.releaseVersions(diff.replacedVersions);
    return { manifestEtag: etag, bytesTotal, bytesStored: this.bytesStored, filesTotal: files.length, filesStored: this.filesStored };
  }

  /** Writes the manifest's rows, and lets go of what left the pin. */
  private async applyDiff(manifest: OfflineManifest) {
    const { db } = this.deps;
    const rootId = this.pin.entryId;
    const ids = [manifest.root.id, ...manifest.entries.map((entry) => entry.id)];
    const [mine, listed] = await Promise.all([db.offlineEntries.where('rootIds').equals(rootId).toArray(), db.offlineEntries.bulkGet(ids)]);
    const held = new Map(mine.map((row) => [row.entryId, row]));
    for (const row of listed) if (row) held.set(row.entryId, row);
    const diff = diffManifest(rootId, this.workspaceId, manifest, [...held.values()]);
    // An unpin or a sign-out stops the attempt: nothing it read before may be written after.
    this.signal.throwIfAborted();
    await db.transaction('rw', db.offlineEntries, async () => {
      await db.offlineEntries.bulkPut([...diff.upserts, ...diff.released]);
      await db.offlineEntries.bulkDelete(diff.removed.map((row) => row.entryId));
    });
    await this.forget(diff.removed);
    return diff;
  }

  /** Rows gone from the device: their thumbnails, and their bytes unless another row holds that version. */
  private async forget(rows: OfflineEntry[]): Promise<void> {
    if (!rows.length) return;
    const cache = await this.deps.cache();
    const origin = this.deps.http.origin;
    for (const row of rows) if (row.version) await cache.delete(thumbnailKey(origin, row.entryId, row.version));
    await this.releaseVersions(rows.map((row) => row.version).filter((version): version is string => !!version));
  }

  private async releaseVersions(versions: string[]): Promise<void> {
    if (!versions.length) return;
    const cache = await this.deps.cache();
    for (const version of new Set(versions)) {
      const holders = await this.deps.db.offlineEntries.where('version').equals(version).count();
      if (holders === 0) {
        await cache.delete(blobKey(this.deps.http.origin, version));
        await this.deps.db.offlinePartials.where('version').equals(version).delete();
      }
    }
  }

  /** The pinned entry is gone: everything only it held leaves the device. */
  private async dropAll(): Promise<void> {
    const { db } = this.deps;
    const rootId = this.pin.entryId;
    const mine = await db.offlineEntries.where('rootIds').equals(rootId).toArray();
    const removed = mine.filter((row) => row.rootIds.length === 1);
    await db.transaction('rw', db.offlineEntries, async () => {
      await db.offlineEntries.bulkDelete(removed.map((row) => row.entryId));
      await db.offlineEntries.bulkPut(
        mine.filter((row) => row.rootIds.length > 1).map((row) => ({ ...row, rootIds: row.rootIds.filter((id) => id !== rootId) })),
      );
    });
    await this.forget(removed);
  }

  /** Folders whose children changed are listed again (every page), so the drive's offline copy paints them. */
  private async refreshListings(folderIds: string[]): Promise<void> {
    if (!folderIds.length) return;
    const drive = this.deps.drive(this.workspaceId ?? 0);
    for (const folderId of folderIds) {
      let cursor: string | null = null;
      do {
        const params: Record<string, string | number> = {
          folderId,
          perPage: LISTING_PAGE,
          orderBy: PINNED_LISTING_SORT.orderBy,
          orderDir: PINNED_LISTING_SORT.orderDir,
        };
        if (cursor) params.cursor = cursor;
        const response = await answered(getFrom(this.deps.http, 'drive/file-entries', { workspaceId: this.workspaceId, params, signal: this.signal }));
        if (!response.ok) throw await refusal(response);
        const page = (await response.json()) as ApiResponse<'drive/file-entries', 'get'>;
        const { data, next_cursor, total } = page.pagination;
        this.signal.throwIfAborted();
        await writeListingPage(
          drive,
          folderListingKey(folderId),
          { entries: data, folder: page.folder, nextCursor: next_cursor, total },
          { replace: cursor === null },
        );
        cursor = next_cursor;
      } while (cursor);
      await this.deps.db.offlineEntries.update(folderId, { storedAt: Date.now() });
    }
    this.deps.changed({ workspaceId: this.workspaceId, folderIds });
  }

  private async inParallel(rows: OfflineEntry[], work: (row: OfflineEntry) => Promise<void>): Promise<void> {
    const queue = [...rows];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await work(row);
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.parallel ?? PARALLEL, queue.length) }, worker));
  }

  /**
   * A file's bytes at the manifest's version, kept in chunks as they arrive so
   * that an interrupted download resumes where it stopped (Range, If-Range on
   * the version's ETag: if the file changed meanwhile the server sends it whole).
   */
  private async download(row: OfflineEntry): Promise<void> {
    const version = row.version!;
    const { db, http } = this.deps;
    let parts = await db.offlinePartials.where('version').equals(version).sortBy('index');
    let offset = parts.reduce((sum, part) => sum + part.blob.size, 0);
    const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-`, 'If-Range': etagOf(version) } : {};
    const response = await answered(
      getFrom(http, 'file-entries/download', { workspaceId: this.workspaceId, params: { hashes: row.entryId }, headers, signal: this.signal }),
    );
    if (response.status === 404 || response.status === 403) return; // Gone or no longer downloadable: the next manifest says so.
    if (!response.ok || !response.body) throw await refusal(response);
    if (response.status !== 206 && offset > 0) {
      await db.offlinePartials.where('version').equals(version).delete();
      parts = [];
      offset = 0;
    }
    const chunk = this.deps.chunkBytes ?? CHUNK_BYTES;
    const reader = response.body.getReader();
    let buffered: Uint8Array[] = [];
    let bufferedBytes = 0;
    let index = parts.length;
    const flush = async () => {
      const blob = new Blob(buffered as BlobPart[]);
      const part = { key: `${version}:${index}`, version, index, start: offset, blob };
      await db.offlinePartials.put(part);
      parts.push(part);
      index += 1;
      offset += bufferedBytes;
      buffered = [];
      bufferedBytes = 0;
    };
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (bufferedBytes > 0) await flush();
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new SyncNetworkError();
      }
      if (read.done) break;
      buffered.push(read.value);
      bufferedBytes += read.value.byteLength;
      this.progress({ bytesStored: this.bytesStored + offset + bufferedBytes });
      if (bufferedBytes >= chunk) await flush();
    }
    const blob = new Blob([...parts.map((part) => part.blob), ...(buffered as BlobPart[])], { type: row.mime ?? 'application/octet-stream' });
    if (blob.size !== row.size) {
      await db.offlinePartials.where('version').equals(version).delete();
      throw new SyncNetworkError(`${row.name}: ${blob.size} of ${row.size} bytes`);
    }
    const cache = await this.deps.cache();
    this.signal.throwIfAborted();
    await cache.put(
      blobKey(http.origin, version),
      new Response(blob, { headers: { 'Content-Type': row.mime ?? 'application/octet-stream', 'Content-Length': String(blob.size), ETag: etagOf(version) } }),
    );
    await db.offlinePartials.where('version').equals(version).delete();
    await db.offlineEntries.update(row.entryId, { storedAt: Date.now(), version });
    if (isDocument(row)) await this.readDocument(row);
    this.bytesStored += row.size;
    this.filesStored += 1;
    this.progress({ bytesStored: this.bytesStored, filesStored: this.filesStored });
  }

  /**
   * A pinned .docx opens in the editor offline: the editor paints the
   * device's copy of a document (user-db `documents`), which is the server's
   * reading of it, so the sync reads it as the editor would.
   */
  private async readDocument(row: OfflineEntry): Promise<void> {
    const held = await this.deps.db.documents.get(row.entryId);
    if (held?.version === row.version) return;
    const response = await answered(postJson(this.deps.http, 'file-entries/read', { id: row.entryId }, { workspaceId: this.workspaceId, signal: this.signal }));
    if (!response.ok) return; // The bytes are on the device; the editor reads the server when it can.
    const answer = await response.json();
    this.signal.throwIfAborted();
    await this.deps.db.documents.put({
      entryId: row.entryId,
      name: answer.fileEntry.name,
      content: answer.data,
      version: answer.version,
      fetchedAt: Date.now(),
    });
  }

  private async thumbnail(row: OfflineEntry): Promise<void> {
    const response = await answered(
      getFrom(this.deps.http, `file-entries/${encodeURIComponent(row.entryId)}/thumbnail`, { workspaceId: this.workspaceId, signal: this.signal }),
    );
    if (!response.ok) return; // A thumbnail is a nicety: a missing one never fails the pin.
    const cache = await this.deps.cache();
    this.signal.throwIfAborted();
    await cache.put(thumbnailKey(this.deps.http.origin, row.entryId, row.version!), response);
    await this.deps.db.offlineEntries.update(row.entryId, { thumbnailStored: true });
  }
}
