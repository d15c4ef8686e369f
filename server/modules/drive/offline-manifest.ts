import { createHash } from 'node:crypto';
import { ValidationError } from '../../lib/errors.js';
import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants, type Grants } from '../access/grants.repository.js';
import { decide, deliveryAction } from '../access/policy.js';
import { requireEntry } from '../access/require.js';
import { THUMBNAIL_MIMES } from './kinds.js';
import { findById, liveDescendants, type Executor, type ManifestRow } from './repository.js';

/**
 * Above this many entries a folder answers 422 rather than a manifest: the
 * body would pass ~5 MB and the device would be asked to hold it all at once.
 * Pinning its subfolders one by one still works.
 */
export const MANIFEST_MAX_ENTRIES = 25_000;
export const MANIFEST_TOO_LARGE =
  'This folder holds more than :max items, too many to make available offline at once. Make its folders available offline one by one.';

/**
 * Grants are loaded this many rows at a time: the share source sends every id
 * on the rows' paths as parameters, and SQLite refuses more than 32,766.
 */
const GRANT_BATCH = 5_000;

/** Tags remembered per caller and root; a Map keeps insertion order, so the oldest goes first. */
const REMEMBERED_TAGS = 1_000;

/** One entry as the device stores it: ids are the drive API's public ids (hashes), sizes bytes, times ISO strings. */
export interface ManifestEntry {
  id: string;
  parentId: string | null;
  type: 'folder' | 'file';
  name: string;
  mime: string | null;
  size: number;
  /** The content version the device keys bytes by; null for folders. */
  sha256: string | null;
  updatedAt: string;
  /** The policy's download action: false means the device may keep the name, not the bytes. */
  canDownload: boolean;
  hasThumbnail: boolean;
}

export interface OfflineManifest {
  root: ManifestEntry;
  entries: ManifestEntry[];
}

/** A manifest with its tag, or only the tag when the caller already holds it (304). */
export type ManifestAnswer = { tag: string; manifest: OfflineManifest } | { tag: string; manifest: null };

/**
 * What a pinned file or folder holds (issue 39): every live entry of the
 * subtree the caller may see, in one response, so a device can keep a whole
 * folder and a refresh with nothing changed costs one request.
 *
 * The ETag is a digest of the manifest itself, not the data version the
 * listings use: any write anywhere bumps that version, and on a busy server a
 * pinned folder of 10k entries would be sent again on every refresh. The data
 * version still serves as the fast path: while it has not moved since this
 * caller's tag for this root was computed, nothing can differ and the 304
 * costs no query. Digests are the same in every process, so several servers
 * agree on a tag.
 */
export class OfflineManifests {
  private readonly remembered = new Map<string, { version: number; tag: string }>();

  constructor(
    private readonly db: Executor,
    private readonly dataVersion: () => number,
    private readonly maxEntries = MANIFEST_MAX_ENTRIES,
  ) {}

  async read(actor: Actor, hash: string, ifNoneMatch: string | undefined): Promise<ManifestAnswer> {
    const held = parseIfNoneMatch(ifNoneMatch);
    const key = `${actor.kind}:${signedInUserId(actor) ?? ''}:${hash}`;
    // Read before the rows: a write racing the build leaves the remembered version behind, so it misses later.
    const version = this.dataVersion();
    const known = this.remembered.get(key);
    if (known && known.version === version && held.has(known.tag)) return { tag: known.tag, manifest: null };

    const manifest = await this.build(actor, hash);
    const tag = `W/"m.${createHash('sha256').update(JSON.stringify(manifest)).digest('base64url').slice(0, 27)}"`;
    this.remember(key, { version, tag });
    return held.has(tag) ? { tag, manifest: null } : { tag, manifest };
  }

  /** The manifest: the root as the policy allows it (404/403), then its subtree in one query. */
  async build(actor: Actor, hash: string): Promise<OfflineManifest> {
    const root = await requireEntry(this.db, actor, 'files.view', hash);
    const rows = root.type === 'folder' ? await liveDescendants(this.db, root.path, this.maxEntries + 1) : [];
    if (rows.length > this.maxEntries) throw ValidationError.field('id', MANIFEST_TOO_LARGE, { max: this.maxEntries.toLocaleString('en') });

    const grants = await this.grantsOf(actor, [root, ...rows]);
    const hashes = new Map<number, string>([[root.id, root.hash], ...rows.map((row): [number, string] => [row.id, row.hash])]);
    const entry = (row: ManifestRow): ManifestEntry => {
      const isFolder = row.type === 'folder';
      return {
        id: row.hash,
        // Every descendant's parent is the root or another live row (a trashed folder takes its subtree with it).
        parentId: row.parent_id === null ? null : (hashes.get(row.parent_id) ?? null),
        type: isFolder ? 'folder' : 'file',
        name: row.name,
        mime: row.mime,
        size: Number(row.file_size),
        sha256: isFolder ? null : row.sha256,
        updatedAt: row.updated_at,
        canDownload: !isFolder && decide(actor, deliveryAction('file'), grants.get(row.id)) === 'allow',
        hasThumbnail: row.mime !== null && THUMBNAIL_MIMES.has(row.mime),
      };
    };
    const visible = rows.filter((row) => decide(actor, 'files.view', grants.get(row.id)) === 'allow');
    // The root's parent is outside the subtree: its id as the listings show it (they show it to share recipients too).
    const parent = root.parent_id === null ? undefined : await findById(this.db, root.parent_id);
    return { root: { ...entry(root), parentId: parent?.hash ?? null }, entries: visible.map(entry) };
  }

  private async grantsOf(actor: Actor, rows: ManifestRow[]): Promise<Grants> {
    const grants: Grants = new Map();
    for (let start = 0; start < rows.length; start += GRANT_BATCH) {
      for (const [id, actions] of await loadGrants(this.db, actor, rows.slice(start, start + GRANT_BATCH))) grants.set(id, actions);
    }
    return grants;
  }

  private remember(key: string, value: { version: number; tag: string }): void {
    this.remembered.delete(key);
    this.remembered.set(key, value);
    if (this.remembered.size > REMEMBERED_TAGS) this.remembered.delete(this.remembered.keys().next().value!);
  }
}

function parseIfNoneMatch(header: string | undefined): Set<string> {
  return new Set(
    (header ?? '')
      .split(',')
      .map((candidate) => candidate.trim())
      .filter(Boolean),
  );
}
