import sharp from 'sharp';
import type { Disk } from '../../storage/disk.js';
import type { FileEntryRow } from '../../db/types.js';
import { THUMBNAIL_MIMES } from './kinds.js';
import { storageKey, thumbnailKey, type Executor } from './repository.js';

export const THUMBNAIL_SIZE = 320;

interface Logger {
  warn(object: object, message: string): void;
}

/** Queues the background job that makes a new file's thumbnail (`makeFor` is its work; see services.ts). */
export type ThumbnailQueue = (entryId: number) => Promise<void>;

/**
 * WebP thumbnails of raster images, made with sharp and stored beside the
 * original (`<prefix>/thumbnail.webp`). New files are queued as background
 * jobs (one at a time per process in the embedded setup; on the shared queue
 * in scale-out mode); a request for a missing one makes it on demand.
 */
export class Thumbnails {
  constructor(
    private readonly db: Executor,
    private readonly disk: Disk,
    private readonly log: Logger,
    private readonly schedule: ThumbnailQueue,
  ) {}

  static supports(entry: Pick<FileEntryRow, 'type' | 'mime'>): boolean {
    return entry.type !== 'folder' && entry.mime !== null && THUMBNAIL_MIMES.has(entry.mime);
  }

  /** Queues a thumbnail for a new file; failures are logged, never thrown at the uploader. */
  queue(entry: FileEntryRow): void {
    if (!Thumbnails.supports(entry)) return;
    this.schedule(entry.id).catch((error: unknown) => this.log.warn({ err: error, entry: entry.hash }, 'thumbnail not queued'));
  }

  /** The job: the file as it is now (its bytes may have been replaced since, or it may be gone). */
  async makeFor(entryId: number): Promise<void> {
    const entry = await this.db.selectFrom('file_entries').selectAll().where('id', '=', entryId).executeTakeFirst();
    if (!entry || !Thumbnails.supports(entry)) return;
    await this.make(entry);
  }

  /** The stored thumbnail's key, making it first if needed; null when the file cannot have one. */
  async ensure(entry: FileEntryRow): Promise<string | null> {
    const key = thumbnailKey(entry);
    if (!key || !Thumbnails.supports(entry)) return null;
    if (await this.disk.stat(key)) return key;
    return this.make(entry);
  }

  private async make(entry: FileEntryRow): Promise<string | null> {
    const source = storageKey(entry);
    const target = thumbnailKey(entry);
    if (!source || !target) return null;
    const input = await this.disk.get(source);
    const transformer = sharp({ limitInputPixels: 100_000_000, failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 });
    // Never more than the thumbnail itself in memory: the original is streamed through sharp.
    input.on('error', (error) => transformer.destroy(error));
    input.pipe(transformer);
    await this.disk.put(target, transformer);
    const updated = await this.db.updateTable('file_entries').set({ thumbnail: 1 }).where('id', '=', entry.id).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      // Deleted forever while we worked: leave no orphan behind.
      await this.disk.deletePrefix(entry.disk_prefix!);
      return null;
    }
    return target;
  }
}
