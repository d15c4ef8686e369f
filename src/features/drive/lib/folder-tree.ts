import type { FolderCrumb, FolderNode } from '../api/types';
import { ROOT_HASH } from './views';

// The flat folder list (GET drive/folders, or its offline copy) as a tree:
// breadcrumbs without the network, and the move dialog's branches.
type Node = Pick<FolderNode, 'hash' | 'name' | 'parent_id'>;

export function indexTree(nodes: Node[]): Map<string, Node> {
  return new Map(nodes.map((n) => [n.hash, n]));
}

/** Crumbs from the root down to `hash` (the root itself has none); null when a link is missing. */
export function pathFromTree(nodes: Node[], hash: string): FolderCrumb[] | null {
  if (hash === ROOT_HASH) return [];
  const byHash = indexTree(nodes);
  const path: FolderCrumb[] = [];
  const seen = new Set<string>();
  let current = byHash.get(hash);
  while (current) {
    if (seen.has(current.hash)) return null;
    seen.add(current.hash);
    path.unshift({ id: current.hash, hash: current.hash, name: current.name });
    if (current.parent_id === null) return path;
    current = byHash.get(current.parent_id);
  }
  return null;
}

export function childrenOf(nodes: Node[], parentHash: string | null): Node[] {
  const parent = parentHash === ROOT_HASH ? null : parentHash;
  return nodes.filter((n) => n.parent_id === parent).sort((a, b) => a.name.localeCompare(b.name));
}

/** True when `hash` is `ancestor` or lies somewhere below it. */
export function isWithin(nodes: Node[], hash: string, ancestor: string): boolean {
  const byHash = indexTree(nodes);
  let current: string | null = hash;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current)) {
    if (current === ancestor) return true;
    seen.add(current);
    current = byHash.get(current)?.parent_id ?? null;
  }
  return false;
}
