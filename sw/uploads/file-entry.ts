import { serverErrorMessage } from '../../src/features/uploads/queue/rules';
import type { FileEntry } from '../../src/features/uploads/queue/types';
import { authHeaders, UploadFailure } from './transport';
import type { HttpDeps } from './transport';

/** Reads `{ fileEntry }`, or turns the server's error JSON into an UploadFailure. */
export async function readEntryResponse(response: Response): Promise<FileEntry> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // An empty or non-JSON answer: the status alone decides.
  }
  if (!response.ok) throw new UploadFailure('http', response.status, serverErrorMessage(body));
  const entry = (body as { fileEntry?: FileEntry } | null)?.fileEntry;
  if (!entry) throw new UploadFailure('http', response.status, null);
  return entry;
}

/** The tus upload key is the last path segment of its URL. */
export function uploadKeyOf(url: string): string {
  const path = new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** POST tus/entries { uploadKey } → the entry of a finished tus upload. */
export async function createTusEntry(deps: HttpDeps, url: string, endpoint: string, signal: AbortSignal): Promise<FileEntry> {
  try {
    const response = await deps.fetch(endpoint, {
      method: 'POST',
      credentials: 'include',
      headers: { ...(await authHeaders(deps)), 'Content-Type': 'application/json' },
      body: JSON.stringify({ uploadKey: uploadKeyOf(url) }),
      signal,
    });
    return await readEntryResponse(response);
  } catch (error) {
    throw toFailure(error, signal);
  }
}

export function toFailure(error: unknown, signal: AbortSignal): UploadFailure {
  if (error instanceof UploadFailure) return error;
  if (signal.aborted) return new UploadFailure('aborted');
  return new UploadFailure('network');
}
