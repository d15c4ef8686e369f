import type { UploadItem, UploadMethod, UploadSettings } from './types';

// The queue rules of spec §4/§5/§9 as pure functions, so the page (checks at
// enqueue time) and the worker (scheduling) agree and tests need no browser.
export const MB = 1024 * 1024;
export const TUS_THRESHOLD = 4 * MB;
export const RETRY_DELAYS = [0, 3000, 5000, 10000, 20000];
export const INACTIVITY_TIMEOUT = 30_000;
export const MAX_CONCURRENCY = 3;
export const DEFAULT_CHUNK_SIZE = 5 * MB;
export const IGNORED_FILES = ['.DS_Store'];
export const SQL_EXTENSIONS = ['sql', 'bak'];

export const TIMED_OUT = 'Upload timed out';
export const TOO_LARGE = ':file exceeds maximum allowed size of :size';
export const TYPE_NOT_ALLOWED = 'This file type is not allowed';

/** Direct S3 multipart at 100 MB or more; one presigned PUT below (spec §9). */
export const S3_MULTIPART_THRESHOLD = 100 * MB;
/** Signed part URLs asked for at once, parts in flight at once, and tries per part after the first. */
export const S3_SIGN_BATCH = 10;
export const S3_PARALLEL_PARTS = 5;
export const S3_PART_RETRIES = 3;

export function chooseMethod(size: number, settings: Pick<UploadSettings, 'disableTus' | 'directS3'>): UploadMethod {
  if (settings.directS3) return size >= S3_MULTIPART_THRESHOLD ? 's3Multipart' : 's3Simple';
  return size >= TUS_THRESHOLD && !settings.disableTus ? 'tus' : 'plain';
}

/**
 * The part size the server uses (it answers it with the upload; this is the
 * same rule): at least 20 MB and at least 5 MB, or size / 10000 when larger.
 */
export function s3PartSize(size: number): number {
  return Math.max(20 * MB, 5 * MB, Math.ceil(size / 10_000));
}

/** The part numbers still to send, in batches of S3_SIGN_BATCH (one signing call each). */
export function missingPartBatches(partCount: number, uploaded: Iterable<number>): number[][] {
  const have = new Set(uploaded);
  const missing: number[] = [];
  for (let n = 1; n <= partCount; n += 1) if (!have.has(n)) missing.push(n);
  const batches: number[][] = [];
  for (let i = 0; i < missing.length; i += S3_SIGN_BATCH) batches.push(missing.slice(i, i + S3_SIGN_BATCH));
  return batches;
}

/** Part `n` (1-based) of a file: its byte range. */
export function partRange(n: number, partSize: number, size: number): { start: number; end: number } {
  const start = (n - 1) * partSize;
  return { start, end: Math.min(size, start + partSize) };
}

/** Items that are waiting or moving: the ones the concurrency limit looks at. */
const isQueued = (item: Pick<UploadItem, 'status'>) => item.status === 'pending' || item.status === 'inProgress';

/**
 * 3 at a time, but 1 while any queued item carries a relative path (parallel
 * uploads would race to create the same folders) or goes through chunked tus
 * or an S3 multipart upload (which sends several parts at once itself).
 */
export function concurrencyLimit(items: Pick<UploadItem, 'status' | 'relativePath' | 'method'>[]): number {
  const serial = items.some((item) => isQueued(item) && (item.relativePath || item.method === 'tus' || item.method === 's3Multipart'));
  return serial ? 1 : MAX_CONCURRENCY;
}

/** The pending items to start now, oldest first, filling the free slots. */
export function pickNextToStart<T extends UploadItem>(items: T[], userId: string | null): T[] {
  const mine = items.filter((item) => item.userId === userId);
  const running = mine.filter((item) => item.status === 'inProgress').length;
  const free = concurrencyLimit(mine) - running;
  if (free <= 0) return [];
  return mine
    .filter((item) => item.status === 'pending')
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    .slice(0, free);
}

export function percentage(bytes: number, size: number): number {
  if (size <= 0) return 0;
  return Math.min(100, Math.floor((bytes / size) * 100));
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isIgnoredFile(name: string): boolean {
  return IGNORED_FILES.includes(name);
}

/** 'image/*' and 'application/pdf' match MIME types; anything else is an extension ('.jpg' or 'jpg'). */
export function matchesType(pattern: string, file: { name: string; mime: string }): boolean {
  const p = pattern.trim().toLowerCase();
  if (!p) return false;
  if (p.includes('/')) {
    const mime = file.mime.toLowerCase();
    return p.endsWith('/*') ? mime.startsWith(p.slice(0, -1)) : mime === p;
  }
  return fileExtension(file.name) === p.replace(/^\./, '');
}

export interface RestrictionFailure {
  message: string;
  values?: Record<string, string>;
}

/**
 * The client's copy of the server's checks (spec §5), so a file that can
 * never be accepted fails before its bytes are copied or sent.
 */
export function checkRestrictions(
  file: { name: string; size: number; mime: string },
  settings: UploadSettings,
  formatSize: (bytes: number) => string,
  options: { sqlOnly?: boolean } = {},
): RestrictionFailure | null {
  if (settings.maxSize !== null && settings.maxSize > 0 && file.size > settings.maxSize) {
    return { message: TOO_LARGE, values: { file: file.name, size: formatSize(settings.maxSize) } };
  }
  const allowed = settings.allowedExtensions.filter((p) => p.trim());
  if (allowed.length && !allowed.some((p) => matchesType(p, file))) return { message: TYPE_NOT_ALLOWED };
  if (settings.blockedExtensions.some((p) => matchesType(p, file))) return { message: TYPE_NOT_ALLOWED };
  if (options.sqlOnly && !SQL_EXTENSIONS.includes(fileExtension(file.name))) return { message: TYPE_NOT_ALLOWED };
  return null;
}

/** Bootstrap `settings.uploads` (loosely typed on the wire) → the settings the queue uses. */
export function readUploadSettings(raw: Record<string, unknown> | undefined): UploadSettings {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const chunk = num(raw?.chunk_size);
  return {
    maxSize: num(raw?.max_size),
    chunkSize: chunk && chunk > 0 ? chunk : DEFAULT_CHUNK_SIZE,
    allowedExtensions: list(raw?.allowed_extensions),
    blockedExtensions: list(raw?.blocked_extensions),
    disableTus: raw?.disable_tus === true,
    directS3: raw?.direct_s3 === true,
  };
}

/** The server's JSON error → the line to show: the first file error, else its message (spec §8). */
export function serverErrorMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  if (typeof errors === 'object' && errors !== null) {
    const file = (errors as Record<string, unknown>).file;
    if (Array.isArray(file) && typeof file[0] === 'string') return file[0];
    const first = Object.values(errors as Record<string, unknown>).find((v) => Array.isArray(v) && typeof v[0] === 'string');
    if (Array.isArray(first)) return first[0] as string;
  }
  return typeof message === 'string' && message ? message : null;
}

export function parseErrorBody(text: string): string | null {
  try {
    return serverErrorMessage(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The server's 409 for a taken name carries the error on the name field (its other 409s do not). */
export function isNameTaken(status: number, body: unknown): boolean {
  if (status !== 409 || typeof body !== 'object' || body === null) return false;
  const errors = (body as { errors?: unknown }).errors;
  return typeof errors === 'object' && errors !== null && Array.isArray((errors as Record<string, unknown>).name);
}

export function isNameTakenText(status: number, text: string): boolean {
  try {
    return isNameTaken(status, JSON.parse(text));
  } catch {
    return false;
  }
}
