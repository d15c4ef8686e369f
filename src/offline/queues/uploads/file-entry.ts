import { isNameTaken, serverErrorMessage } from './rules';
import type { FileEntry } from './types';
import { postJson, UploadFailure } from './transport';
import type { ApiAnswer, HttpDeps } from './transport';

/** The answers of the routes that make the entry. */
type EntryAnswer = ApiAnswer<'file-entries'> | ApiAnswer<'tus/entries'> | ApiAnswer<'s3/entries'>;

/** Reads `{ fileEntry }`, or turns the server's error JSON into an UploadFailure. */
export async function readEntryResponse(response: EntryAnswer): Promise<FileEntry> {
  let body: Awaited<ReturnType<typeof response.json>> | null = null;
  try {
    body = await response.json();
  } catch {
    // An empty or non-JSON answer: the status alone decides.
  }
  if (!response.ok) throw new UploadFailure('http', response.status, serverErrorMessage(body), isNameTaken(response.status, body));
  const entry = body?.fileEntry;
  if (!entry) throw new UploadFailure('http', response.status, null);
  return entry;
}

/** The tus upload key is the last path segment of its URL. */
export function uploadKeyOf(url: string): string {
  const path = new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** POST tus/entries { uploadKey } → the entry of a finished tus upload, in the item's workspace. */
export async function createTusEntry(deps: HttpDeps, url: string, workspaceId: number | null, signal: AbortSignal, traceId?: string): Promise<FileEntry> {
  try {
    const response = await postJson(deps, 'tus/entries', { uploadKey: uploadKeyOf(url) }, { workspaceId, signal, traceId });
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
