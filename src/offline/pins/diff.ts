import type { ManifestEntry, OfflineEntry, OfflineManifest } from './types';

// What a pin's new manifest changes on the device, as a pure function of what
// the device holds for the pin and what the server answered: which rows to
// write, which leave (and so may release their bytes), which files need bytes,
// and which folders' listings must be fetched again.

export interface ManifestDiff {
  /** Rows to write as they should be after the sync (bytes not yet fetched keep `storedAt` null). */
  upserts: OfflineEntry[];
  /** Entries that no pin holds any more: rows and, if no other row shares the version, bytes go. */
  removed: OfflineEntry[];
  /** Rows that stay for other pins but no longer belong to this one. */
  released: OfflineEntry[];
  /** Files whose bytes (at the manifest's version) are not on the device. */
  downloads: OfflineEntry[];
  /** Files with a thumbnail the device does not hold (at the manifest's version). */
  thumbnails: OfflineEntry[];
  /** Folders whose listing changed (a child came, went, or changed), the root folder on a first sync. */
  changedFolders: string[];
  /** Versions the device held for entries whose version changed: released once the new bytes are in. */
  replacedVersions: string[];
}

/** The files of a manifest the device keeps bytes of: downloadable files with a version. */
export const keepsBytes = (entry: ManifestEntry) => entry.type === 'file' && entry.canDownload && !!entry.sha256;

export function diffManifest(rootId: string, workspaceId: number | null, manifest: OfflineManifest, held: OfflineEntry[]): ManifestDiff {
  const heldById = new Map(held.map((row) => [row.entryId, row]));
  const listed = [manifest.root, ...manifest.entries];
  const seen = new Set<string>();
  const changedFolders = new Set<string>();
  const upserts: OfflineEntry[] = [];
  const downloads: OfflineEntry[] = [];
  const thumbnails: OfflineEntry[] = [];
  const replacedVersions: string[] = [];

  for (const entry of listed) {
    seen.add(entry.id);
    const before = heldById.get(entry.id);
    const rootIds = before ? (before.rootIds.includes(rootId) ? before.rootIds : [...before.rootIds, rootId]) : [rootId];
    const version = entry.type === 'file' ? entry.sha256 : null;
    const sameBytes = !!before && before.version === version && before.storedAt !== null;
    const row: OfflineEntry = {
      entryId: entry.id,
      workspaceId,
      type: entry.type,
      name: entry.name,
      parentId: entry.parentId,
      mime: entry.mime,
      size: entry.size,
      version,
      updatedAt: entry.updatedAt,
      rootIds,
      storedAt: sameBytes || entry.type === 'folder' ? (before?.storedAt ?? null) : null,
      thumbnailStored: sameBytes ? (before?.thumbnailStored ?? false) : false,
    };
    const changed =
      !before ||
      before.name !== entry.name ||
      before.parentId !== entry.parentId ||
      before.updatedAt !== entry.updatedAt ||
      before.version !== version ||
      before.size !== entry.size;
    if (changed && entry.id !== rootId && entry.parentId) changedFolders.add(entry.parentId);
    if (before?.version && version !== before.version) replacedVersions.push(before.version);
    if (changed || !before.rootIds.includes(rootId)) upserts.push(row);
    if (keepsBytes(entry) && !sameBytes) downloads.push(row);
    if (entry.type === 'file' && entry.hasThumbnail && version && !row.thumbnailStored) thumbnails.push(row);
  }
  // A folder never listed on this device (first sync, or new) needs its listing.
  for (const entry of listed) {
    if (entry.type === 'folder' && heldById.get(entry.id)?.storedAt == null) changedFolders.add(entry.id);
  }

  const removed: OfflineEntry[] = [];
  const released: OfflineEntry[] = [];
  for (const row of held) {
    if (seen.has(row.entryId) || !row.rootIds.includes(rootId)) continue;
    if (row.parentId) changedFolders.add(row.parentId);
    const rootIds = row.rootIds.filter((id) => id !== rootId);
    if (rootIds.length === 0) removed.push(row);
    else released.push({ ...row, rootIds });
  }
  // Only folders inside the pin have a listing the pin keeps.
  const folders = new Set(listed.filter((entry) => entry.type === 'folder').map((entry) => entry.id));
  return {
    upserts,
    removed,
    released,
    downloads,
    thumbnails,
    changedFolders: [...changedFolders].filter((id) => folders.has(id)),
    replacedVersions,
  };
}
