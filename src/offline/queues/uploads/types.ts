import type { components } from '../../../api/schema';

// The upload item of spec §3, as stored in IndexedDB and shown on every page.
// Shared by the page and the service worker, so it uses no DOM-only types.
// The bytes live in their own table (UploadBlob): IndexedDB rewrites a whole
// record on every update, and progress must not copy a 1 GB Blob each chunk.
export type FileEntry = components['schemas']['FileEntry'];

export type UploadStatus = 'pending' | 'inProgress' | 'completed' | 'failed' | 'aborted';

/**
 * Plain multipart post below 4 MB; resumable tus at or above it (spec §9).
 * On a server whose disk is S3 with direct uploads: one presigned PUT below
 * 100 MB, a resumable S3 multipart upload at or above it.
 */
export type UploadMethod = 'plain' | 'tus' | 's3Simple' | 's3Multipart';

/**
 * A name already taken in the folder: 'ask' (a new item: the server refuses
 * with 409 and the queue offers Replace or Keep both), then the person's
 * answer — 'replace' (the file gets these bytes, its old ones a version) or
 * 'rename' (keep both).
 */
export type UploadConflict = 'ask' | 'replace' | 'rename';
export type ConflictChoice = Exclude<UploadConflict, 'ask'>;

/** The stored record of an S3 multipart upload in progress: resuming asks the server for its parts. */
export interface S3UploadRef {
  key: string;
  uploadId: string;
}

export interface UploadItem {
  id: string;
  /** The signed-in user who queued it: another user's session never sends it. */
  userId: string;
  name: string;
  size: number;
  mime: string;
  extension: string;
  /** `photos/2024/a.jpg` for files from a folder: the server creates the folders. */
  relativePath: string | null;
  lastModified: number;
  /** Target folder hash, '0' for the root. */
  folderHash: string;
  workspaceId: number | null;
  method: UploadMethod;
  chunkSize: number;
  status: UploadStatus;
  bytesUploaded: number;
  percentage: number;
  /** The tus upload URL once created: resuming starts with HEAD on it. */
  tusUrl: string | null;
  /** The S3 multipart upload once created (absent on items queued before S3 uploads existed). */
  s3Upload?: S3UploadRef | null;
  entry: FileEntry | null;
  /** Absent on items queued before the queue asked: those keep both, as uploads did then. */
  onConflict?: UploadConflict;
  /** Failed because the name is taken: the row offers Replace and Keep both. */
  nameTaken?: boolean;
  /** An English line (translated where shown) or the server's own message. */
  errorMessage: string | null;
  errorValues: Record<string, string> | null;
  /** False for client-side restriction failures: their bytes were never kept. */
  retryable: boolean;
  /** Pending because the network went away; it starts again when it returns. */
  waitingForNetwork: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface UploadBlob {
  id: string;
  blob: Blob;
}

export interface UploadSettings {
  maxSize: number | null;
  chunkSize: number;
  allowedExtensions: string[];
  blockedExtensions: string[];
  disableTus: boolean;
  /** The server's disk is S3 and browsers upload to it directly. */
  directS3: boolean;
}
