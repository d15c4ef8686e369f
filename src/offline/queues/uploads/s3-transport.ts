import { readEntryResponse, toFailure } from './file-entry';
import { isNameTaken, missingPartBatches, partRange, S3_PARALLEL_PARTS, S3_PART_RETRIES, serverErrorMessage } from './rules';
import type { ApiPath } from '../../../api/typed-paths';
import type { PostCalls } from '../http';
import { conflictOf, postJson, UploadFailure } from './transport';
import type { HttpDeps, Transport, TransportContext } from './transport';
import type { FileEntry, S3UploadRef, UploadItem } from './types';

// Direct uploads to S3 (spec §7 "Upload calls", §4, §9): the app signs, the
// bucket receives the bytes. A multipart upload's key and id are kept on the
// item, so after a reload or a lost network it asks which parts the bucket
// already has and sends only the rest.

interface StoredPart {
  PartNumber: number;
  ETag: string;
  Size: number;
}

/** The app's S3 signing routes (naming them keeps the type checker's work small). */
type S3Path = Extract<ApiPath<'post'>, `s3/${string}`>;

/** A signing step of the app's S3 routes: the route's declared body in, its declared answer out. */
async function callApi<S extends S3Path>(
  deps: HttpDeps,
  path: S,
  record: UploadItem,
  body: PostCalls[S]['body'],
  signal: AbortSignal,
): Promise<PostCalls[S]['answer']> {
  const response = await postJson(deps, path, body, { workspaceId: record.workspaceId, signal, traceId: record.id });
  let parsed: PostCalls[S]['answer'] | null = null;
  if (response.status !== 204) {
    try {
      parsed = await response.json();
    } catch {
      // The status alone decides.
    }
  }
  if (!response.ok) throw new UploadFailure('http', response.status, serverErrorMessage(parsed), isNameTaken(response.status, parsed));
  // A route that answers nothing (204) is typed `void`.
  return parsed as PostCalls[S]['answer'];
}

const fileFields = (record: UploadItem) => ({
  filename: record.name,
  mime: record.mime || 'application/octet-stream',
  size: record.size,
  extension: record.extension,
  metadata: { parentId: record.folderHash, onConflict: conflictOf(record), ...(record.relativePath ? { relativePath: record.relativePath } : {}) },
});

async function finishEntry(deps: HttpDeps, record: UploadItem, key: string, signal: AbortSignal): Promise<FileEntry> {
  const body = {
    filename: key,
    size: record.size,
    clientName: record.name,
    clientMime: record.mime,
    clientExtension: record.extension,
    // The finish answers a name taken meanwhile as the item asks.
    metadata: { parentId: record.folderHash, onConflict: conflictOf(record) },
  };
  const response = await postJson(deps, 's3/entries', body, { workspaceId: record.workspaceId, signal, traceId: record.id });
  return readEntryResponse(response);
}

/** A PUT to the bucket: no cookies, no XSRF header (another origin, authorised by the URL's signature). */
async function putToStore(deps: HttpDeps, url: string, body: Blob, signal: AbortSignal, contentType?: string): Promise<string> {
  const response = await deps.fetch(url, { method: 'PUT', body, signal, ...(contentType ? { headers: { 'Content-Type': contentType } } : {}) });
  if (!response.ok) throw new UploadFailure('http', response.status, null);
  return response.headers.get('ETag') ?? '';
}

/** One presigned PUT of the whole file, then its entry. */
export function s3SimpleTransport(deps: HttpDeps): Transport {
  return (record, context) => {
    const controller = new AbortController();
    const { signal } = controller;
    const done = (async () => {
      try {
        const presigned = await callApi(deps, 's3/simple/presign', record, fileFields(record), signal);
        await putToStore(deps, presigned.url, context.blob, signal, presigned.contentType);
        context.onProgress(record.size);
        return await finishEntry(deps, record, presigned.key, signal);
      } catch (error) {
        throw toFailure(error, signal);
      }
    })();
    return { done, abort: () => controller.abort() };
  };
}

/** Runs `task` on every item, `limit` at a time; the first failure stops the rest. */
async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A part is retried S3_PART_RETRIES times; a refusal by the bucket (4xx) is not retried. */
async function withRetries<T>(signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const refused = error instanceof UploadFailure && error.status >= 400 && error.status < 500;
      if (signal.aborted || refused || tries >= S3_PART_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * (tries + 1)));
    }
  }
}

async function runMultipart(deps: HttpDeps, record: UploadItem, context: TransportContext, signal: AbortSignal): Promise<FileEntry> {
  let upload: S3UploadRef | null = record.s3Upload ?? null;
  let stored: StoredPart[] = [];
  let partSize = 0;
  let partCount = 0;
  if (upload) {
    try {
      const found = await callApi(deps, 's3/multipart/get-uploaded-parts', record, upload, signal);
      // The route declares no part size for an upload that is not multipart: that one cannot be resumed either.
      if (found.partSize === null) throw new UploadFailure('http', 404);
      ({ parts: stored, partSize, partCount } = { ...found, partSize: found.partSize });
    } catch (error) {
      // Gone (aborted, expired after 24 h, or finished elsewhere): start a new one.
      if (!(error instanceof UploadFailure && error.status === 404)) throw error;
      upload = null;
      context.onS3Upload(null);
    }
  }
  if (!upload) {
    const created = await callApi(deps, 's3/multipart/create', record, fileFields(record), signal);
    upload = { key: created.key, uploadId: created.uploadId };
    ({ partSize, partCount } = created);
    context.onS3Upload(upload);
  }
  const ref = upload;
  const etags = new Map<number, string>();
  let sent = 0;
  for (const part of stored) {
    const range = partRange(part.PartNumber, partSize, record.size);
    // A part of the wrong size (a different file under the same record) is sent again.
    if (part.Size !== range.end - range.start) continue;
    etags.set(part.PartNumber, part.ETag);
    sent += part.Size;
  }
  context.onProgress(sent);
  for (const batch of missingPartBatches(partCount, etags.keys())) {
    const { urls } = await callApi(deps, 's3/multipart/batch-sign-part-urls', record, { ...ref, partNumbers: batch }, signal);
    await inParallel(urls, S3_PARALLEL_PARTS, async ({ partNumber, url }) => {
      const { start, end } = partRange(partNumber, partSize, record.size);
      etags.set(partNumber, await withRetries(signal, () => putToStore(deps, url, context.blob.slice(start, end), signal)));
      sent += end - start;
      context.onProgress(sent);
    });
  }
  const parts = [...etags].sort(([a], [b]) => a - b).map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
  await callApi(deps, 's3/multipart/complete', record, { ...ref, parts }, signal);
  return finishEntry(deps, record, ref.key, signal);
}

/**
 * The multipart path: create (or resume from the stored record), sign parts
 * in batches, send them in parallel with retries, complete, make the entry.
 * When the server refuses a step the upload is aborted (its space released)
 * and the error reported; a user's abort or a lost network keeps it, so a
 * retry or the network's return resumes it.
 */
export function s3MultipartTransport(deps: HttpDeps): Transport {
  return (record, context) => {
    const controller = new AbortController();
    const { signal } = controller;
    let current: S3UploadRef | null = record.s3Upload ?? null;
    const tracked: TransportContext = {
      ...context,
      onS3Upload: (upload) => {
        current = upload;
        context.onS3Upload(upload);
      },
    };
    const done = (async () => {
      try {
        return await runMultipart(deps, record, tracked, signal);
      } catch (error) {
        const failure = toFailure(error, signal);
        if (failure.kind === 'http' && current) {
          const ref = current;
          await callApi(deps, 's3/multipart/abort', record, ref, new AbortController().signal).catch(() => undefined);
          tracked.onS3Upload(null);
        }
        throw failure;
      }
    })();
    return { done, abort: () => controller.abort() };
  };
}
