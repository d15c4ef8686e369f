import { describe, expect, it } from 'vitest';
import { actionsFor, disabledReason } from '../../../src/features/drive/lib/actions';
import { emptyStateFor } from '../../../src/features/drive/lib/empty-states';
import { iconKindOf, previewKindOf } from '../../../src/features/drive/lib/file-kind';
import { childrenOf, isWithin, pathFromTree } from '../../../src/features/drive/lib/folder-tree';
import { uploadableFiles } from '../../../src/features/drive/hooks/use-files-chosen';
import { inlinePreview } from '../../../server/modules/drive/kinds';
import { makeEntry } from './entries';

describe('entry actions', () => {
  it('offers open/preview and rename for one entry, the rest for many', () => {
    expect(actionsFor('folder', [makeEntry({ type: 'folder' })])).toEqual(['open', 'download', 'pin', 'rename', 'move', 'copy', 'star', 'details', 'trash']);
    expect(actionsFor('folder', [makeEntry({ type: 'image' })])[0]).toBe('preview');
    expect(actionsFor('starred', [makeEntry({ is_starred: true }), makeEntry({ is_starred: true })])).toEqual([
      'download',
      'pin',
      'move',
      'copy',
      'unstar',
      'details',
      'trash',
    ]);
  });

  it('offers no download to a caller who may only view: preview stays', () => {
    const viewOnly = makeEntry({ type: 'file', mime: 'application/octet-stream', permissions: ['files.view'] });
    expect(actionsFor('folder', [viewOnly])).toEqual(['preview', 'star', 'details']);
    expect(actionsFor('folder', [makeEntry({ type: 'image' }), viewOnly])).not.toContain('download');
  });

  it("offers only what the server's permissions on the entries allow (a workspace viewer changes nothing)", () => {
    const viewer = makeEntry({ type: 'image', permissions: ['files.view', 'files.download'] });
    expect(actionsFor('folder', [viewer])).toEqual(['preview', 'download', 'pin', 'star', 'details']);
    const editorNoDelete = makeEntry({ type: 'image', permissions: ['files.view', 'files.create', 'files.update'] });
    expect(actionsFor('folder', [editorNoDelete])).toEqual(['preview', 'rename', 'move', 'copy', 'star', 'details']);
    // Several entries: an action every one of them allows.
    expect(actionsFor('folder', [makeEntry(), viewer])).not.toEqual(expect.arrayContaining(['move']));
    expect(actionsFor('folder', [makeEntry(), viewer])).not.toContain('trash');
    expect(actionsFor('trash', [viewer])).toEqual(['details']);
  });

  it('offers restore and delete forever in the trash', () => {
    expect(actionsFor('trash', [makeEntry()])).toEqual(['restore', 'deleteForever', 'details']);
    // Share shows only when the server says every entry may be shared.
    const shareable = makeEntry({ permissions: ['files.view', 'files.download', 'files.share'] });
    expect(actionsFor('folder', [shareable]).slice(1, 3)).toEqual(['download', 'share']);
    expect(actionsFor('folder', [shareable, makeEntry()])).not.toContain('share');
    expect(actionsFor('folder', [])).toEqual([]);
  });

  it('disables what needs the server while offline, with a reason', () => {
    expect(disabledReason('rename', false)).toBe('Not available while offline');
    expect(disabledReason('rename', true)).toBeNull();
    expect(disabledReason('open', false)).toBeNull();
    expect(disabledReason('details', false)).toBeNull();
  });

  it('offers to pin what is not pinned and to unpin what is, offline too', () => {
    const none = { allPinned: false, anyPinned: false, allStored: false };
    const some = { allPinned: false, anyPinned: true, allStored: false };
    const all = { allPinned: true, anyPinned: true, allStored: true };
    expect(actionsFor('folder', [makeEntry()], none)).toContain('pin');
    expect(actionsFor('folder', [makeEntry()], none)).not.toContain('unpin');
    expect(actionsFor('folder', [makeEntry(), makeEntry()], some)).toEqual(expect.arrayContaining(['pin', 'unpin']));
    expect(actionsFor('folder', [makeEntry()], all)).not.toContain('pin');
    expect(actionsFor('trash', [makeEntry()], all)).not.toContain('unpin');
    // Pinning offline is remembered for when the network returns.
    expect(disabledReason('pin', false, none)).toBeNull();
    expect(disabledReason('unpin', false, all)).toBeNull();
  });

  it('downloads and previews offline what the device holds, and says plainly what it does not', () => {
    expect(disabledReason('download', false, { allPinned: false, anyPinned: false, allStored: false })).toBe("This file isn't available offline");
    expect(disabledReason('download', false, { allPinned: false, anyPinned: false, allStored: true })).toBeNull();
    expect(disabledReason('download', true)).toBeNull();
    expect(disabledReason('preview', false)).toBeNull();
  });
});

describe('empty states (spec §2)', () => {
  it('words each view as the spec does', () => {
    expect(emptyStateFor('folder')).toEqual({ title: 'Drop files or folders here', text: 'Or use the "Upload" button' });
    expect(emptyStateFor('recent')).toEqual({ title: 'No recent entries', text: 'You have not uploaded any files or folders yet' });
    expect(emptyStateFor('sql')).toEqual(emptyStateFor('recent'));
    expect(emptyStateFor('search')).toEqual({ title: 'Begin typing or select a filter to search' });
    expect(emptyStateFor('search', true)).toEqual({ title: 'No matching results', text: 'Try changing your search query or filters' });
    expect(emptyStateFor('shares')).toEqual({ title: 'Shared with me', text: 'Files and folders other people have shared with you' });
    expect(emptyStateFor('trash')).toEqual({ title: 'Trash is empty', text: 'There are no files or folders in your trash currently' });
    expect(emptyStateFor('starred')).toEqual({ title: 'Nothing is starred', text: 'Add stars to files and folders that you want to easily find later' });
  });
});

describe('file icons and previews', () => {
  it('has the spec icon for every kind, default otherwise', () => {
    const kinds = ['pdf', 'image', 'text', 'powerpoint', 'word', 'spreadsheet', 'folder', 'archive', 'audio', 'video'];
    for (const type of kinds) expect(iconKindOf({ type })).toBe(type);
    expect(iconKindOf({ type: 'folder' }, { shared: true })).toBe('shared');
    expect(iconKindOf({ type: 'sql' })).toBe('default');
    expect(iconKindOf({ type: 'file' })).toBe('default');
  });

  it('asks for a preview exactly where the server has one (its inlinePreview), never for other kinds', () => {
    for (const [type, mime] of [
      ['image', 'image/png'],
      ['image', 'image/svg+xml'],
      ['video', 'video/mp4'],
      ['audio', 'audio/mpeg'],
      ['pdf', 'application/pdf'],
      ['text', 'text/plain'],
      ['text', 'text/html'],
      ['text', 'application/json'],
      ['text', 'application/xml'],
      ['spreadsheet', 'text/csv'],
      ['spreadsheet', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['word', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['word', 'application/rtf'],
      ['sql', 'application/sql'],
      ['sql', 'application/octet-stream'],
      ['archive', 'application/zip'],
      ['file', 'application/octet-stream'],
    ] as const) {
      expect(previewKindOf({ type, mime }) !== 'none', `${type} ${mime}`).toBe(inlinePreview(mime, type) !== null);
    }
  });

  it('previews media, pdf and text, never markup', () => {
    expect(previewKindOf({ type: 'image', mime: 'image/png' })).toBe('image');
    expect(previewKindOf({ type: 'image', mime: 'image/svg+xml' })).toBe('none');
    expect(previewKindOf({ type: 'text', mime: 'text/plain' })).toBe('text');
    expect(previewKindOf({ type: 'text', mime: 'text/html' })).toBe('none');
    expect(previewKindOf({ type: 'archive', mime: 'application/zip' })).toBe('none');
  });
});

describe('folder tree', () => {
  const tree = [
    { hash: 'a', name: 'A', parent_id: null },
    { hash: 'b', name: 'B', parent_id: 'a' },
    { hash: 'c', name: 'C', parent_id: 'b' },
    { hash: 'z', name: 'Z', parent_id: null },
  ];

  it('gives breadcrumbs without the network', () => {
    expect(pathFromTree(tree, 'c')?.map((c) => c.name)).toEqual(['A', 'B', 'C']);
    expect(pathFromTree(tree, '0')).toEqual([]);
    expect(pathFromTree(tree, 'missing')).toBeNull();
  });

  it('lists children and knows descendants (no move into itself)', () => {
    expect(childrenOf(tree, '0').map((n) => n.name)).toEqual(['A', 'Z']);
    expect(isWithin(tree, 'c', 'a')).toBe(true);
    expect(isWithin(tree, 'a', 'a')).toBe(true);
    expect(isWithin(tree, 'z', 'a')).toBe(false);
  });
});

describe('upload hook point', () => {
  it('skips .DS_Store files', () => {
    const files = [new File(['x'], 'a.txt'), new File(['x'], '.DS_Store')];
    expect(uploadableFiles(files).map((f) => f.name)).toEqual(['a.txt']);
  });
});
