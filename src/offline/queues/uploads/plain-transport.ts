import { readEntryResponse, toFailure } from './file-entry';
import { conflictOf, postForm } from './transport';
import type { HttpDeps, Transport } from './transport';

/**
 * POST file-entries as multipart: the fields first (the server reads them
 * before streaming the file part), the file last.
 */
export function plainTransport(deps: HttpDeps): Transport {
  return (record, context) => {
    const controller = new AbortController();
    const { signal } = controller;
    const done = (async () => {
      try {
        const form = new FormData();
        form.append('parentId', record.folderHash);
        if (record.relativePath) form.append('relativePath', record.relativePath);
        form.append('onConflict', conflictOf(record));
        form.append('file', context.blob, record.name);
        const response = await postForm(deps, 'file-entries', form, { workspaceId: record.workspaceId, signal, traceId: record.id });
        const entry = await readEntryResponse(response);
        context.onProgress(record.size);
        return entry;
      } catch (error) {
        throw toFailure(error, signal);
      }
    })();
    return { done, abort: () => controller.abort() };
  };
}
