import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { FileEntryRow } from '../../db/types.js';
import type { Disk } from '../../storage/disk.js';
import { zipSegment } from './names.js';
import { storageKey, subtreeRows, type Executor } from './repository.js';

/** Kinds whose bytes are already compressed: stored as they are, which is faster and no larger. */
const STORED_KINDS = new Set(['image', 'video', 'audio', 'archive', 'pdf', 'word', 'spreadsheet', 'powerpoint']);

export interface ZipItem {
  path: string;
  entry: FileEntryRow;
}

/**
 * The archive's layout: each selected entry at the top, folders with their
 * live contents below, every name made a safe segment (no "..", no absolute
 * or drive paths, no backslashes) and made unique among its siblings
 * (case-insensitively, for the file systems that will unpack it).
 */
export async function zipLayout(db: Executor, tops: FileEntryRow[]): Promise<ZipItem[]> {
  const items: ZipItem[] = [];
  const taken = new Map<string, Set<string>>();
  const place = (parentPath: string, entry: FileEntryRow): string => {
    const siblings = taken.get(parentPath) ?? new Set<string>();
    taken.set(parentPath, siblings);
    const segment = zipSegment(entry.name);
    let candidate = segment;
    for (let n = 1; siblings.has(candidate.toLowerCase()); n += 1) {
      const dot = entry.type === 'folder' ? -1 : segment.lastIndexOf('.');
      candidate = dot > 0 ? `${segment.slice(0, dot)} (${n})${segment.slice(dot)}` : `${segment} (${n})`;
    }
    siblings.add(candidate.toLowerCase());
    return parentPath ? `${parentPath}/${candidate}` : candidate;
  };

  for (const top of tops) {
    const rows = top.type === 'folder' ? (await subtreeRows(db, top.path)).filter((r) => r.deleted_at === null) : [top];
    rows.sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.id - b.id);
    const paths = new Map<number, string>();
    for (const row of rows) {
      const parentPath = row.id === top.id ? '' : paths.get(row.parent_id!);
      if (parentPath === undefined) continue;
      const zipPath = place(parentPath, row);
      paths.set(row.id, zipPath);
      items.push({ path: zipPath, entry: row });
    }
  }
  return items;
}

/**
 * A zip written while it is sent: each file's bytes are opened only when the
 * archive reaches it and flow through with backpressure, so memory stays flat
 * whatever the size. If the client goes away, the open file is closed.
 */
export function zipStream(disk: Disk, items: ZipItem[], onError: (error: unknown) => void): Readable {
  const zip = new ZipFile();
  const output = new PassThrough();
  const open = new Set<Readable>();

  for (const { path, entry } of items) {
    const mtime = new Date(entry.updated_at);
    if (entry.type === 'folder') {
      zip.addEmptyDirectory(path, { mtime });
      continue;
    }
    const key = storageKey(entry);
    if (!key) continue;
    zip.addReadStreamLazy(path, { mtime, compress: !STORED_KINDS.has(entry.type), size: Number(entry.file_size) }, (callback) => {
      disk.get(key).then(
        (stream) => {
          open.add(stream);
          stream.once('close', () => open.delete(stream));
          callback(null, stream);
        },
        (error: unknown) => callback(error, new PassThrough()),
      );
    });
  }
  zip.end();

  zip.on('error', (error: unknown) => {
    onError(error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  output.on('close', () => {
    for (const stream of open) stream.destroy();
  });
  zip.outputStream.pipe(output);
  return output;
}
