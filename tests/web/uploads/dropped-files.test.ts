import { describe, expect, it } from 'vitest';
import { readEntries } from '../../../src/features/uploads/dropped-files';

// Just enough of the File and Directory Entries API to walk a dropped tree.
function fileEntry(fullPath: string): FileSystemFileEntry {
  const name = fullPath.split('/').pop() ?? '';
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (success: (file: File) => void) => success(new File(['x'], name)),
  } as unknown as FileSystemFileEntry;
}

function dirEntry(fullPath: string, children: FileSystemEntry[], batch = 2): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').pop() ?? '',
    fullPath,
    createReader: () => {
      let offset = 0;
      // Answers in small batches, as Chromium does (100 at a time).
      return {
        readEntries: (success: (entries: FileSystemEntry[]) => void) => {
          success(children.slice(offset, offset + batch));
          offset += batch;
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

describe('reading dropped folders', () => {
  it('walks folders recursively, keeps relative paths and skips .DS_Store', async () => {
    const tree = dirEntry('/photos', [
      fileEntry('/photos/a.jpg'),
      fileEntry('/photos/.DS_Store'),
      dirEntry('/photos/2024', [fileEntry('/photos/2024/b.jpg'), fileEntry('/photos/2024/c.jpg'), fileEntry('/photos/2024/d.jpg')]),
    ]);
    const files = await readEntries([tree, fileEntry('/loose.txt'), fileEntry('/.DS_Store')]);
    expect(files.map((f) => [f.file.name, f.relativePath])).toEqual([
      ['a.jpg', 'photos/a.jpg'],
      ['b.jpg', 'photos/2024/b.jpg'],
      ['c.jpg', 'photos/2024/c.jpg'],
      ['d.jpg', 'photos/2024/d.jpg'],
      ['loose.txt', null],
    ]);
  });
});
