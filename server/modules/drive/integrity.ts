import { createHash } from 'node:crypto';
import type { Finding } from '../../lib/findings.js';
import type { Disk, ListedObject } from '../../storage/disk.js';
import { correctFileSize, entriesWithBytes, entryExists, folderSizeDrift, namesUnder, settleFolderSize, type StoredEntry } from './integrity.repository.js';
import type { Executor } from './repository.js';

const THUMBNAIL = 'thumbnail.webp';
const PAGE = 500;

const describe = (entry: Pick<StoredEntry, 'hash' | 'name'>) => `entry ${entry.hash} ("${entry.name}")`;

/**
 * The drive's database checked against its disk: entries whose bytes are
 * missing or differ (size, sha256), bytes no entry points to, folder size
 * roll-ups, and what cut-off writes leave behind. Fixes are offered only
 * where they cannot lose anything: bytes an entry points to are never
 * deleted, and missing or damaged bytes are reported for a person (and a
 * backup) to settle.
 */
export class StorageIntegrity {
  constructor(
    private readonly db: Executor,
    private readonly disk: Disk,
  ) {}

  /** Temporary files and empty folders left at or before `before`. */
  async leftovers(before: Date): Promise<Finding[]> {
    const found = await this.disk.leftovers(before);
    return [
      ...found.temporaryFiles.map((file) => ({
        check: 'temporary-file' as const,
        subject: file,
        detail: 'a temporary file of a write that never finished',
        fix: () => this.disk.removeLeftovers({ temporaryFiles: [file], emptyFolders: [] }),
      })),
      ...found.emptyFolders.map((folder) => ({
        check: 'empty-folder' as const,
        subject: folder,
        detail: 'an empty storage folder',
        fix: () => this.disk.removeLeftovers({ temporaryFiles: [], emptyFolders: [folder] }),
      })),
    ];
  }

  /**
   * Stored objects no entry points to, written at or before `before` (later
   * ones may belong to a write about to commit). Folders in `keep` belong to
   * a finish in progress and are left alone.
   */
  async unreferenced(before: Date, keep: ReadonlySet<string> = new Set()): Promise<Finding[]> {
    const findings: Finding[] = [];
    let batch: ListedObject[] = [];
    const flush = async () => {
      const prefixes = [...new Set(batch.map((o) => o.key.split('/')[0]!))];
      const names = await namesUnder(this.db, prefixes);
      for (const object of batch) {
        const [prefix, name, ...deeper] = object.key.split('/');
        const inUse = names.get(prefix!);
        if (inUse && !deeper.length && (inUse.has(name!) || name === THUMBNAIL)) continue;
        findings.push({
          check: 'unreferenced-bytes',
          subject: object.key,
          detail: `${object.size} bytes no entry points to`,
          // A folder no entry points to goes whole (its folder too); beside an entry's bytes, only the stray object.
          fix: () => (inUse ? this.disk.delete(object.key) : this.disk.deletePrefix(prefix!)),
        });
      }
      batch = [];
    };
    for await (const object of this.disk.list()) {
      if (object.modifiedAt > before || keep.has(object.key.split('/')[0]!)) continue;
      batch.push(object);
      if (batch.length >= PAGE) await flush();
    }
    await flush();
    return findings;
  }

  /**
   * Entries whose bytes are missing, or whose size (and, with `checksums`,
   * sha256) disagrees with them. A size is corrected only when the bytes'
   * sha256 proves them right and the row wrong.
   */
  async entries(options: { checksums: boolean }): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (let afterId = 0; ;) {
      const page = await entriesWithBytes(this.db, afterId, PAGE);
      if (!page.length) return findings;
      for (const entry of page) findings.push(...(await this.checkEntry(entry, options.checksums)));
      afterId = page.at(-1)!.id;
    }
  }

  private async checkEntry(entry: StoredEntry, checksums: boolean): Promise<Finding[]> {
    const key = `${entry.disk_prefix}/${entry.file_name}`;
    const stored = await this.disk.stat(key);
    if (!stored) {
      // Deleted forever while we looked: the row went first, then its bytes.
      if (!(await entryExists(this.db, entry.id))) return [];
      return [{ check: 'missing-bytes', subject: describe(entry), detail: `its bytes (${key}) are missing: restore them from a backup`, fix: null }];
    }
    const sha256 = checksums && entry.sha256 ? await this.hashOf(key) : null;
    const findings: Finding[] = [];
    const recorded = Number(entry.file_size);
    if (stored.size !== recorded) {
      const provenRight = sha256 !== null && sha256 === entry.sha256;
      findings.push({
        check: 'size',
        subject: describe(entry),
        detail: `recorded as ${recorded} bytes, stored as ${stored.size}${provenRight ? ' (the bytes match its sha256: the record is wrong)' : ''}`,
        fix: provenRight ? () => correctFileSize(this.db, entry.id, stored.size) : null,
      });
    }
    if (sha256 !== null && sha256 !== entry.sha256) {
      findings.push({
        check: 'checksum',
        subject: describe(entry),
        detail: `its bytes (${key}) do not match its sha256: restore them from a backup`,
        fix: null,
      });
    }
    return findings;
  }

  private async hashOf(key: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of await this.disk.get(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  /** Folders whose size is not what their files add up to; the fix recounts at the time it runs. */
  async folderSizes(): Promise<Finding[]> {
    return (await folderSizeDrift(this.db)).map((folder) => ({
      check: 'folder-size',
      subject: describe(folder),
      detail: `recorded as ${folder.recorded} bytes, its files add up to ${folder.expected}`,
      fix: () => settleFolderSize(this.db, folder.id),
    }));
  }

  /** Whether an entry points into this storage folder (a finish committed). */
  async committedUnder(prefix: string): Promise<boolean> {
    return (await namesUnder(this.db, [prefix])).has(prefix);
  }

  /**
   * Hands the bytes stored under a folder no entry points to back to a local
   * file (a finish that adopted an upload and died before its commit), and
   * clears the folder. False when there were none.
   */
  async moveBack(prefix: string, localFile: string): Promise<boolean> {
    if (await this.committedUnder(prefix)) return false;
    let moved = false;
    for await (const object of this.disk.list(prefix)) {
      if (moved || object.key.endsWith(`/${THUMBNAIL}`)) continue;
      await this.disk.release(object.key, localFile);
      moved = true;
    }
    await this.disk.deletePrefix(prefix);
    return moved;
  }
}
