import fs from 'node:fs/promises';
import path from 'node:path';
import type { ListedObject } from './disk.js';

/** Every file below `root` (from `prefix` down) as a key (`a/b`), skipping the top-level folders named in `skip`. */
export async function* walkFiles(root: string, skip: ReadonlySet<string>, prefix: string[] = []): AsyncGenerator<ListedObject> {
  const entries = await fs.readdir(path.join(root, ...prefix), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    // A folder removed while we walk (a delete forever) simply has nothing left to list.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    if (!prefix.length && skip.has(entry.name)) continue;
    const parts = [...prefix, entry.name];
    if (entry.isDirectory()) {
      yield* walkFiles(root, skip, parts);
    } else if (entry.isFile()) {
      const stat = await fs.stat(path.join(root, ...parts)).catch(() => null);
      if (stat) yield { key: parts.join('/'), size: stat.size, modifiedAt: stat.mtime };
    }
  }
}

/**
 * Folders below `root` that hold no file anywhere beneath them and were last
 * changed at or before `before`, deepest first (so removing them in order works).
 * A folder changed since is left for a later pass: a write may be about to
 * rename its object into it.
 */
export async function emptyFolders(root: string, before: Date, skip: ReadonlySet<string>, prefix: string[] = []): Promise<{ empty: boolean; found: string[] }> {
  const dir = path.join(root, ...prefix);
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => null);
  if (!entries) return { empty: false, found: [] };
  const found: string[] = [];
  let empty = true;
  for (const entry of entries) {
    if (!prefix.length && skip.has(entry.name)) continue;
    if (!entry.isDirectory()) {
      empty = false;
      continue;
    }
    const below = await emptyFolders(root, before, skip, [...prefix, entry.name]);
    found.push(...below.found);
    if (!below.empty) empty = false;
  }
  if (!prefix.length) return { empty: false, found };
  const stat = await fs.stat(dir).catch(() => null);
  const old = stat !== null && stat.mtime <= before;
  if (empty && old) found.push(prefix.join('/'));
  return { empty: empty && old, found };
}
