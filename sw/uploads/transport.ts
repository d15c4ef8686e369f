import type { FileEntry, UploadItem } from '../../src/features/uploads/queue/types';

// One upload attempt of one item. Plain and tus uploads share this shape, so
// the engine's rules (timeout, status, persistence) never depend on how the
// bytes travel.
export interface TransportContext {
  blob: Blob;
  /** Bytes the server has confirmed so far. */
  onProgress: (bytesUploaded: number) => void;
  /** The tus upload URL, as soon as the server created it. */
  onUploadUrl: (url: string) => void;
}

export interface TransportHandle {
  done: Promise<FileEntry>;
  abort: () => void;
}

export type Transport = (record: UploadItem, context: TransportContext) => TransportHandle;

export interface HttpDeps {
  fetch: typeof fetch;
  /** Origin the API paths resolve against (the page's or the worker's). */
  origin: string;
  /** Read fresh for every request: the cookie may change under a long upload. */
  getXsrfToken: () => Promise<string | null>;
}

/** network: no answer at all; timeout: no progress for 30 s; http: the server said no. */
export type FailureKind = 'network' | 'timeout' | 'http' | 'aborted';

/** Why an attempt ended without an entry: the engine decides what the item becomes. */
export class UploadFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number;
  /** The line to show: the server's message, or ours (timeout). */
  readonly userMessage: string | null;

  constructor(kind: FailureKind, status = 0, userMessage: string | null = null) {
    super(userMessage ?? kind);
    this.name = 'UploadFailure';
    this.kind = kind;
    this.status = status;
    this.userMessage = userMessage;
  }
}

/** `/api/v1/...` on the right origin, scoped to the item's workspace (base client rules). */
export function apiUrl(deps: Pick<HttpDeps, 'origin'>, path: string, workspaceId: number | null): string {
  const url = new URL(path, deps.origin);
  if (workspaceId !== null) url.searchParams.set('workspaceId', String(workspaceId));
  return url.toString();
}

export async function authHeaders(deps: Pick<HttpDeps, 'getXsrfToken'>): Promise<Record<string, string>> {
  const token = await deps.getXsrfToken();
  return token ? { Accept: 'application/json', 'X-XSRF-TOKEN': token } : { Accept: 'application/json' };
}
