import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../lib/tokens.js';
import { writeSmallFile } from './small-writes.js';
import { assertSafeKey, ObjectMissingError, type ByteRange, type Disk, type Leftovers, type ListedObject, type StoredObject } from './disk.js';
import { emptyFolders, walkFiles } from './local-walk.js';

/** Where writes in progress live until they are renamed into place; a crash can leave files here. */
const TMP = '.tmp';
const SKIP = new Set([TMP]);
const READ_SIZE = 1024 * 1024;
/**
 * What a write may hold while the disk writes what came before: the socket is read on meanwhile and the next write
 * takes all of it at once (one writev). With the default 16 KiB every 64 KiB read waited for its own write, and a PUT
 * of 1 GiB cost ~25% more CPU (16,384 thread-pool round trips) and its rate with it.
 */
const WRITE_BUFFER = 4 * 1024 * 1024;

/**
 * Objects as files under one folder. Writes go to a temporary file first and
 * are renamed into place, so a reader never sees half an object and a
 * failed upload leaves nothing behind.
 */
export class LocalDisk implements Disk {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const tmpDir = path.join(this.root, TMP);
    const tmp = path.join(tmpDir, `${randomToken(12)}.part`);
    // The temporary folder is made when it is missing, not asked for on every write (many small files).
    const handle = await fs
      .open(tmp, 'wx')
      .catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await fs.mkdir(tmpDir, { recursive: true });
        return fs.open(tmp, 'wx');
      })
      .catch((error: unknown) => {
        // As a failed pipeline would: the body is not left waiting for a reader.
        body.destroy();
        throw error;
      });
    try {
      // The stream owns the handle and closes it; what it wrote is the size (no stat).
      const file = handle.createWriteStream({ highWaterMark: WRITE_BUFFER });
      await pipeline(body, file);
      await moveInto(tmp, target);
      return { size: file.bytesWritten };
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }

  /**
   * Written in place, without put's temporary file and rename (and without a stream), by one writer thread
   * (storage/small-writes.ts): one message where the four thread-pool round trips it took before (mkdir, open,
   * write, close) cost the event loop ~90 µs a file against ~34. Only for a key not in use yet ('wx': an existing
   * object is never overwritten), which no row names before the caller commits one, so no reader can see the object
   * half written; a failed write leaves what it wrote to the caller's clean-up of the prefix, and a crash to the
   * unreferenced-bytes check, as a crash after put and before the commit does.
   */
  putBytes(key: string, bytes: Buffer): Promise<void> {
    return writeSmallFile(this.pathOf(key), bytes);
  }

  async adopt(key: string, localFile: string): Promise<void> {
    const target = this.pathOf(key);
    try {
      await moveInto(localFile, target);
    } catch (error) {
      // Another filesystem: copy through a temporary file, then let go of the original.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await this.put(key, createReadStream(localFile));
      await fs.rm(localFile, { force: true });
    }
  }

  async get(key: string, range?: ByteRange, size?: number): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new ObjectMissingError(key) : error;
    });
    // A known size is a range to the end: the stream stops after its last byte instead of reading again to
    // find the end, and its buffer is the file's size. A fresh buffer is allocated per read; 1 MiB for a
    // 1 KiB file was garbage the collector then spent a seventh of a small GET's time on.
    const bounds = range ?? (size !== undefined && size > 0 ? { start: 0, end: size - 1 } : undefined);
    // The stream owns the handle from here and closes it when done or destroyed. 1 MiB reads
    // (instead of 64 KiB) cut the syscalls and event-loop turns of a large download sixteenfold.
    return handle.createReadStream({
      highWaterMark: bounds ? Math.min(READ_SIZE, bounds.end - bounds.start + 1) : READ_SIZE,
      ...(bounds ? { start: bounds.start, end: bounds.end } : {}),
    });
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const stat = await fs.stat(this.pathOf(key));
      return stat.isFile() ? { size: stat.size, modifiedAt: stat.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  list(prefix?: string): AsyncIterable<ListedObject> {
    if (prefix) assertSafeKey(prefix);
    return walkFiles(this.root, SKIP, prefix ? prefix.split('/') : []);
  }

  async release(key: string, localFile: string): Promise<void> {
    const source = this.pathOf(key);
    try {
      await moveInto(source, localFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await pipeline(createReadStream(source), createWriteStream(localFile));
      await fs.rm(source, { force: true });
    }
  }

  async leftovers(before: Date): Promise<Leftovers> {
    const temporaryFiles: string[] = [];
    for await (const file of walkFiles(path.join(this.root, TMP), new Set())) {
      if (file.modifiedAt <= before) temporaryFiles.push(`${TMP}/${file.key}`);
    }
    return { temporaryFiles, emptyFolders: (await emptyFolders(this.root, before, SKIP)).found };
  }

  async removeLeftovers(leftovers: Leftovers): Promise<void> {
    for (const file of leftovers.temporaryFiles) await fs.rm(path.join(this.root, ...file.split('/')), { force: true });
    for (const folder of leftovers.emptyFolders) {
      // rmdir, not rm -r: a folder that received an object since it was listed stays.
      await fs.rmdir(path.join(this.root, ...folder.split('/'))).catch(() => undefined);
    }
  }
}

/**
 * Renames a finished file into place, making its folder only now (not while
 * the bytes arrive), so an empty folder exists for an instant at most. If
 * housekeeping removed that folder in between, it is made again once.
 */
async function moveInto(from: string, target: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(from, target);
      return;
    } catch (error) {
      const gone = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!gone || attempt > 0 || !(await fs.stat(from).catch(() => null))) throw error;
    }
  }
}
