import { isIgnoredFile } from '../../offline/queues/uploads/rules';
import type { FileWithPath } from './files';

// Folders dropped on the page (spec §4 Drag and drop): read recursively
// through the File and Directory Entries API, .DS_Store skipped.

/**
 * Call synchronously inside the drop handler: the browser empties the
 * DataTransfer once the event returns, so the entries are taken first and
 * read afterwards.
 */
export function readDroppedFiles(dataTransfer: DataTransfer): Promise<FileWithPath[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (!entries.length && !loose.length) loose.push(...Array.from(dataTransfer.files));
  return readEntries(entries).then((files) => [...files, ...loose.filter((file) => !isIgnoredFile(file.name)).map((file) => ({ file, relativePath: null }))]);
}

/** Every file below the given entries; a file inside a folder keeps its path. */
export async function readEntries(entries: FileSystemEntry[]): Promise<FileWithPath[]> {
  const out: FileWithPath[] = [];
  for (const entry of entries) await collect(entry, out);
  return out;
}

async function collect(entry: FileSystemEntry, out: FileWithPath[]): Promise<void> {
  if (isFileEntry(entry)) {
    if (isIgnoredFile(entry.name)) return;
    const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
    const path = entry.fullPath.replace(/^\/+/, '');
    out.push({ file, relativePath: path.includes('/') ? path : null });
    return;
  }
  if (isDirectoryEntry(entry)) {
    for (const child of await readAllChildren(entry)) await collect(child, out);
  }
}

/** readEntries answers in batches (100 in Chromium) until it returns none. */
async function readAllChildren(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

const isFileEntry = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;
const isDirectoryEntry = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;
