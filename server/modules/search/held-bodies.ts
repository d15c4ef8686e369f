import type { FileEntryRow } from '../../db/types.js';

/** What may wait in memory for the text job at once; past it the oldest go (their job reads the disk instead). */
const MAX_HELD_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of small new files, kept from their upload until the text job of
 * the same process reads them (issue 37: 10,000 small PUTs each read their
 * file back from the disk). Keyed by entry and checked against its sha256, so
 * a file replaced again meanwhile is read from the disk, as any other is.
 */
export class HeldBodies {
  private readonly bodies = new Map<number, { sha256: string; bytes: Buffer }>();
  private total = 0;

  hold(entry: Pick<FileEntryRow, 'id' | 'sha256'>, bytes: Buffer): void {
    if (!entry.sha256 || bytes.length > MAX_HELD_BYTES) return;
    this.drop(entry.id);
    this.bodies.set(entry.id, { sha256: entry.sha256, bytes });
    this.total += bytes.length;
    // A Map iterates in insertion order: the first is the oldest.
    for (const id of this.bodies.keys()) {
      if (this.total <= MAX_HELD_BYTES) break;
      this.drop(id);
    }
  }

  /** The held bytes of the entry, if they are still its content (`sha256`: the row's now); either way they go. */
  take(entryId: number, sha256: string | null | undefined): Buffer | null {
    const held = this.bodies.get(entryId);
    this.drop(entryId);
    return held && held.sha256 === sha256 ? held.bytes : null;
  }

  drop(id: number): void {
    const held = this.bodies.get(id);
    if (!held) return;
    this.total -= held.bytes.length;
    this.bodies.delete(id);
  }

  get size(): number {
    return this.bodies.size;
  }
}
