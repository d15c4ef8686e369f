import { Upload } from 'tus-js-client';
import type { DetailedError, HttpRequest, UrlStorage } from 'tus-js-client';
import { isNameTakenText, parseErrorBody, RETRY_DELAYS } from './rules';
import { traceHeaders } from '../../../observability/trace-context';
import { blobFileReader } from './blob-file-reader';
import { createTusEntry } from './file-entry';
import { FetchHttpStack } from './fetch-http-stack';
import { conflictOf, tusEndpoint, UploadFailure } from './transport';
import type { HttpDeps, Transport } from './transport';

// The item's record is where the upload URL lives (it survives the worker),
// so tus-js-client's own URL storage stays unused.
const noUrlStorage: UrlStorage = {
  findAllUploads: () => Promise.resolve([]),
  findUploadsByFingerprint: () => Promise.resolve([]),
  removeUpload: () => Promise.resolve(),
  addUpload: () => Promise.resolve(''),
};

/**
 * Resumable upload (tus 1.0). With a stored URL tus-js-client starts with
 * HEAD and continues from the server's Upload-Offset; when that upload is gone
 * (expired after 24 h) it creates a new one at the endpoint.
 */
export function tusTransport(deps: HttpDeps): Transport {
  return (record, context) => {
    const controller = new AbortController();
    let upload: Upload | null = null;
    const done = new Promise<Awaited<ReturnType<typeof createTusEntry>>>((resolve, reject) => {
      const metadata: Record<string, string> = { name: record.name, parentId: record.folderHash, mime: record.mime, onConflict: conflictOf(record) };
      if (record.relativePath) metadata.relativePath = record.relativePath;
      const tus: Upload = new Upload(context.blob, {
        // Creating the upload checks the destination and reserves the space in the item's workspace.
        endpoint: tusEndpoint(deps, record.workspaceId),
        uploadUrl: record.tusUrl,
        uploadSize: record.size,
        chunkSize: record.chunkSize,
        retryDelays: RETRY_DELAYS,
        metadata,
        httpStack: new FetchHttpStack(deps.fetch),
        fileReader: blobFileReader,
        urlStorage: noUrlStorage,
        fingerprint: () => Promise.resolve(record.id),
        storeFingerprintForResuming: false,
        onBeforeRequest: async (req: HttpRequest) => {
          const token = await deps.getXsrfToken();
          if (token) req.setHeader('X-XSRF-TOKEN', token);
          for (const [name, value] of Object.entries(traceHeaders(record.id))) req.setHeader(name, value);
        },
        onUploadUrlAvailable: () => {
          if (tus.url) context.onUploadUrl(tus.url);
        },
        onChunkComplete: (_chunk, accepted) => context.onProgress(accepted),
        onSuccess: () => {
          const url = tus.url;
          if (!url) return reject(new UploadFailure('http'));
          context.onProgress(record.size);
          createTusEntry(deps, url, record.workspaceId, controller.signal, record.id).then(resolve, reject);
        },
        onError: (error) => reject(controller.signal.aborted ? new UploadFailure('aborted') : tusFailure(error)),
      });
      upload = tus;
      tus.start();
    });
    return {
      done,
      abort: () => {
        controller.abort();
        // Keep the upload on the server: a retry resumes it (it expires in 24 h).
        void upload?.abort(false);
      },
    };
  };
}

function tusFailure(error: Error | DetailedError): UploadFailure {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return new UploadFailure('network');
  return new UploadFailure('http', response.getStatus(), parseErrorBody(response.getBody()), isNameTakenText(response.getStatus(), response.getBody()));
}
