import type { FileEntry } from '../../../src/features/drive/api/types';

export function makeEntry(overrides: Partial<FileEntry> = {}): FileEntry {
  const id = overrides.id ?? Math.random().toString(36).slice(2, 10);
  return {
    id,
    hash: id,
    name: `Entry ${id}`,
    description: null,
    type: 'folder',
    mime: null,
    extension: null,
    file_size: 0,
    parent_id: null,
    owner_id: 1,
    workspace_id: 0,
    is_starred: false,
    is_shared: false,
    owner_name: null,
    url: null,
    thumbnail_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    purge_at: null,
    permissions: ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download'],
    ...overrides,
  };
}
