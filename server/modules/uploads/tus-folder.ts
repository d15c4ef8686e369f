import fs from 'node:fs/promises';
import path from 'node:path';

/** A tus upload as the file store keeps it: `<id>` (the bytes so far) and `<id>.json` (its metadata). */
export interface TusUploadOnDisk {
  id: string;
  /** Bytes received so far; null when the data file is gone. */
  bytes: number | null;
  hasInfo: boolean;
  /** The later of the two files' modification times. */
  modifiedAt: Date;
}

const INFO = '.json';

/**
 * The tus store's folder read directly, without @tus/file-store (whose
 * constructor creates folders): the doctor must be able to look without
 * writing anything.
 */
export class TusFolder {
  constructor(private readonly directory: string) {}

  fileOf(id: string): string {
    return path.join(this.directory, id);
  }

  async list(): Promise<TusUploadOnDisk[]> {
    const names = await fs.readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const uploads = new Map<string, TusUploadOnDisk>();
    for (const name of names) {
      const stat = await fs.stat(path.join(this.directory, name)).catch(() => null);
      if (!stat?.isFile()) continue;
      const isInfo = name.endsWith(INFO);
      const id = isInfo ? name.slice(0, -INFO.length) : name;
      const upload = uploads.get(id) ?? { id, bytes: null, hasInfo: false, modifiedAt: stat.mtime };
      if (isInfo) upload.hasInfo = true;
      else upload.bytes = stat.size;
      if (stat.mtime > upload.modifiedAt) upload.modifiedAt = stat.mtime;
      uploads.set(id, upload);
    }
    return [...uploads.values()];
  }

  /** Removes an upload's bytes and metadata, whichever are left. */
  async remove(id: string): Promise<void> {
    await fs.rm(this.fileOf(id), { force: true });
    await fs.rm(`${this.fileOf(id)}${INFO}`, { force: true });
  }
}
