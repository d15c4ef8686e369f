import type { FileEntry } from '../api/types';

// Spec §2: file icons for pdf, image, text, shared, powerpoint, word,
// spreadsheet, folder, archive, audio, video and a default.
export type FileIconKind = 'pdf' | 'image' | 'text' | 'shared' | 'powerpoint' | 'word' | 'spreadsheet' | 'folder' | 'archive' | 'audio' | 'video' | 'default';

const BY_TYPE: Record<string, FileIconKind> = {
  folder: 'folder',
  image: 'image',
  video: 'video',
  audio: 'audio',
  pdf: 'pdf',
  text: 'text',
  spreadsheet: 'spreadsheet',
  word: 'word',
  powerpoint: 'powerpoint',
  archive: 'archive',
};

export function iconKindOf(entry: Pick<FileEntry, 'type'>, options: { shared?: boolean } = {}): FileIconKind {
  if (entry.type === 'folder' && options.shared) return 'shared';
  return BY_TYPE[entry.type] ?? 'default';
}

/**
 * How the preview overlay shows a file: the server's line (drive/kinds.ts
 * `inlinePreview`). For 'none' the preview address is never requested: the
 * server has no preview for those kinds (404), only a download.
 */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'none';

export function previewKindOf(entry: Pick<FileEntry, 'type' | 'mime'>): PreviewKind {
  const mime = entry.mime ?? '';
  // Markup is never shown inline: it could run in the app's origin.
  if (/html|svg|xml|javascript/.test(mime)) return 'none';
  if (entry.type === 'image' || entry.type === 'video' || entry.type === 'audio' || entry.type === 'pdf') return entry.type;
  if (entry.type === 'text' || mime.startsWith('text/') || mime === 'application/json' || mime === 'application/sql') return 'text';
  return 'none';
}
