import { fileTypeFromBuffer } from 'file-type';

/** What the drive shows an entry as (icons, views, previews). */
export const FILE_KINDS = ['image', 'video', 'audio', 'pdf', 'text', 'spreadsheet', 'word', 'powerpoint', 'archive', 'sql', 'file'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const ENTRY_TYPES = ['folder', ...FILE_KINDS] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** Extensions the SQL view lists and its picker accepts (spec §2). */
export const SQL_EXTENSIONS = ['sql', 'bak'];

/** How many leading bytes are kept for sniffing (enough for Office documents' zip directories). */
export const SNIFF_BYTES = 64 * 1024;

/** Formats recognised by their text alone: trusted from the extension only when the bytes are text. */
const TEXT_EXTENSIONS: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/plain',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  ini: 'text/plain',
  conf: 'text/plain',
  sql: 'application/sql',
  rtf: 'application/rtf',
  ics: 'text/calendar',
  vtt: 'text/vtt',
  srt: 'text/plain',
  sh: 'text/plain',
  py: 'text/plain',
};

/** Container formats that sniff as their container (zip, OLE) but whose extension names the document. */
const CONTAINER_EXTENSIONS: Record<string, { container: string[]; mime: string }> = {
  docx: { container: ['application/zip'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { container: ['application/zip'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { container: ['application/zip'], mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  odt: { container: ['application/zip'], mime: 'application/vnd.oasis.opendocument.text' },
  ods: { container: ['application/zip'], mime: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { container: ['application/zip'], mime: 'application/vnd.oasis.opendocument.presentation' },
  doc: { container: ['application/x-cfb'], mime: 'application/msword' },
  xls: { container: ['application/x-cfb'], mime: 'application/vnd.ms-excel' },
  ppt: { container: ['application/x-cfb'], mime: 'application/vnd.ms-powerpoint' },
};

const KIND_BY_MIME: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'text/csv': 'spreadsheet',
  'text/tab-separated-values': 'spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'spreadsheet',
  'application/vnd.ms-excel': 'spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet': 'spreadsheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'word',
  'application/msword': 'word',
  'application/vnd.oasis.opendocument.text': 'word',
  'application/rtf': 'word',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'powerpoint',
  'application/vnd.ms-powerpoint': 'powerpoint',
  'application/vnd.oasis.opendocument.presentation': 'powerpoint',
  'application/zip': 'archive',
  'application/x-tar': 'archive',
  'application/gzip': 'archive',
  'application/x-7z-compressed': 'archive',
  'application/x-rar-compressed': 'archive',
  'application/vnd.rar': 'archive',
  'application/x-bzip2': 'archive',
  'application/x-xz': 'archive',
  'application/zstd': 'archive',
  'application/json': 'text',
  'application/xml': 'text',
  'application/sql': 'text',
};

export const OCTET_STREAM = 'application/octet-stream';

/** "Report.PDF" → "pdf"; names without one (or dot-files) → null. */
export function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  return /^[a-z0-9_+-]{1,32}$/.test(extension) ? extension : null;
}

/** True when the bytes read as UTF-8 text without NULs (a cut-off last character is fine). */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The MIME type from the bytes (file-type), with the extension only as a
 * fallback that the bytes must not contradict: a binary format's extension
 * is never believed without its signature, and a text format's only when the
 * bytes are text. The client's claimed type is not an input at all.
 */
export async function sniffMime(head: Uint8Array, extension: string | null): Promise<string> {
  const sniffed = head.length ? await fileTypeFromBuffer(head) : undefined;
  if (sniffed) {
    const container = extension ? CONTAINER_EXTENSIONS[extension] : undefined;
    if (container?.container.includes(sniffed.mime)) return container.mime;
    return sniffed.mime;
  }
  const text = looksLikeText(head);
  if (extension && TEXT_EXTENSIONS[extension] && text) return TEXT_EXTENSIONS[extension]!;
  return text ? 'text/plain' : OCTET_STREAM;
}

export function kindOf(mime: string, extension: string | null): FileKind {
  if (extension && SQL_EXTENSIONS.includes(extension)) return 'sql';
  const known = KIND_BY_MIME[mime];
  if (known) return known;
  const [group] = mime.split('/');
  if (group === 'image' || group === 'video' || group === 'audio') return group;
  if (group === 'text') return 'text';
  return 'file';
}

/** Raster images sharp decodes; SVG is left out on purpose (scripts, external references). */
export const THUMBNAIL_MIMES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);

/** Markup a browser would run: never shown inline from the app's origin. */
const ACTIVE_CONTENT = /html|svg|xml|javascript/;
const TEXTUAL = /^text\/|^application\/(json|sql)$/;

/** How a file with a preview is shown: inline, as this type. */
export interface InlinePreview {
  inline: true;
  contentType: string;
}

/**
 * The kinds that have a preview, and how it is shown: images, video, audio
 * and PDF inline as themselves; text inline as plain text. Active content
 * (HTML, SVG, XML, scripts) and everything else has none (null): it is only
 * ever downloaded. The client's `previewKindOf` draws the same line.
 */
export function inlinePreview(mime: string, kind: string): InlinePreview | null {
  if (ACTIVE_CONTENT.test(mime)) return null;
  if (['image', 'video', 'audio', 'pdf'].includes(kind)) return { inline: true, contentType: mime };
  if (TEXTUAL.test(mime)) return { inline: true, contentType: 'text/plain; charset=utf-8' };
  return null;
}
