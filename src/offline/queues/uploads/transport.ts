import type { FileEntry, S3UploadRef, UploadConflict, UploadItem } from './types';

// The queues' shared request builders live in ../http.ts; re-exported for the upload transports.
export { postForm, postJson, tusEndpoint, type ApiAnswer, type HttpDeps } from '../http';

// One upload attempt of one item. Plain and tus uploads share this shape, so
// the engine's rules (timeout, status, persistence) never depend on how the
// bytes travel.
export interface TransportContext {
  blob: Blob;
  /** Bytes the server has confirmed so far. */
  onProgress: (bytesUploaded: number) => void;
  /** The tus upload URL, as soon as the server created it. */
  onUploadUrl: (url: string) => void;
  /** The S3 multipart upload as soon as it exists (null once it is gone): a reload resumes it. */
  onS3Upload: (upload: S3UploadRef | null) => void;
}

export interface TransportHandle {
  done: Promise<FileEntry>;
  abort: () => void;
}

export type Transport = (record: UploadItem, context: TransportContext) => TransportHandle;

/** network: no answer at all; timeout: no progress for 30 s; http: the server said no. */
export type FailureKind = 'network' | 'timeout' | 'http' | 'aborted';

/** Why an attempt ended without an entry: the engine decides what the item becomes. */
export class UploadFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number;
  /** The line to show: the server's message, or ours (timeout). */
  readonly userMessage: string | null;
  /** The server refused because the name is taken (the upload asked first). */
  readonly nameTaken: boolean;

  constructor(kind: FailureKind, status = 0, userMessage: string | null = null, nameTaken = false) {
    super(userMessage ?? kind);
    this.name = 'UploadFailure';
    this.kind = kind;
    this.status = status;
    this.userMessage = userMessage;
    this.nameTaken = nameTaken;
  }
}

/** The item's answer to a taken name, as the server's onConflict field spells it. */
export const conflictOf = (record: UploadItem): UploadConflict => record.onConflict ?? 'rename';
