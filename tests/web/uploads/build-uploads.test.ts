import { describe, expect, it } from 'vitest';
import { buildUploads } from '../../../src/features/uploads/build-uploads';
import { TYPE_NOT_ALLOWED } from '../../../src/offline/queues/uploads/rules';
import type { UploadSettings } from '../../../src/offline/queues/uploads/types';

const MB = 1024 * 1024;
const settings: UploadSettings = { maxSize: null, chunkSize: 2 * MB, allowedExtensions: [], blockedExtensions: [], disableTus: false, directS3: false };
const options = { userId: '1', settings, formatSize: String, now: 1000 };
const file = (name: string, bytes = 10, type = 'text/plain') => new File([new Uint8Array(bytes)], name, { type });

describe('building queue items from files', () => {
  it('skips .DS_Store, keeps relative paths, and picks the method and chunk size', () => {
    const big = file('big.bin', 4 * MB, '');
    const built = buildUploads(
      [
        file('.DS_Store'),
        { file: file('a.jpg', 10, 'image/jpeg'), relativePath: 'photos/2024/a.jpg' },
        { file: file('.DS_Store'), relativePath: 'photos/.DS_Store' },
        big,
      ],
      { folderHash: 'abc', workspaceId: 3 },
      options,
    );
    expect(built.items.map((i) => [i.name, i.relativePath, i.method])).toEqual([
      ['a.jpg', 'photos/2024/a.jpg', 'plain'],
      ['big.bin', null, 'tus'],
    ]);
    expect(built.items[1]).toMatchObject({ mime: 'application/octet-stream', chunkSize: 2 * MB, folderHash: 'abc', workspaceId: 3, status: 'pending' });
    expect(built.blobs.map((b) => b.id)).toEqual(built.items.map((i) => i.id));
    // Order of choosing is the order of uploading.
    expect(built.items[0]!.createdAt).toBeLessThan(built.items[1]!.createdAt);
  });

  it('uses webkitRelativePath from the folder picker', () => {
    const picked = file('b.txt');
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'docs/b.txt' });
    expect(buildUploads([picked], { folderHash: '0', workspaceId: null }, options).items[0]?.relativePath).toBe('docs/b.txt');
  });

  it('records restriction failures as failed items without copying their bytes', () => {
    const built = buildUploads([file('a.txt'), file('dump.sql')], { folderHash: '0', workspaceId: null, view: 'sql' }, options);
    expect(built.items.map((i) => [i.name, i.status, i.errorMessage, i.retryable])).toEqual([
      ['a.txt', 'failed', TYPE_NOT_ALLOWED, false],
      ['dump.sql', 'pending', null, true],
    ]);
    expect(built.blobs).toHaveLength(1);
    expect(built.failures).toEqual([{ message: TYPE_NOT_ALLOWED }]);
  });
});
