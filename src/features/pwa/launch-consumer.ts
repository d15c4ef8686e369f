import { fileExtension } from '../../offline/queues/uploads/rules';

// File Handling: the installed app is the OS's handler for .docx files
// (manifest file_handlers). The browser hands the files to the page through
// window.launchQueue; the page puts them in the upload queue (the drive's
// root, so it works offline too) and opens the first in the editor once the
// server holds it: the editor edits a drive entry, never a loose file.

/** The part of the File Handling API the consumer uses (Chromium only, not in TypeScript's DOM lib). */
export interface LaunchFileHandle {
  kind: string;
  getFile(): Promise<File>;
}
export interface LaunchParamsLike {
  files?: readonly LaunchFileHandle[];
}
export interface LaunchQueueLike {
  setConsumer(consumer: (params: LaunchParamsLike) => void): void;
}

export interface LaunchDeps {
  /** Queues the files for the signed-in user; answers their queue item ids, in order. */
  upload(files: File[]): Promise<string[]>;
  /** Settles with the drive entry once the item has been uploaded. */
  whenUploaded(itemId: string): Promise<{ id: number | string }>;
  open(path: string): void;
}

export const HANDLED_EXTENSIONS = ['docx'];

/** The files of one launch that the app handles; others (if the OS sends any) are ignored. */
export async function launchedFiles(params: LaunchParamsLike): Promise<File[]> {
  const handles = (params.files ?? []).filter((handle) => handle.kind === 'file');
  const files = await Promise.all(handles.map((handle) => handle.getFile()));
  return files.filter((file) => HANDLED_EXTENSIONS.includes(fileExtension(file.name)));
}

/** One launch: every file uploaded, the first opened in the editor when it lands. */
export async function handleLaunch(params: LaunchParamsLike, deps: LaunchDeps): Promise<void> {
  const files = await launchedFiles(params);
  if (!files.length) return;
  const [first] = await deps.upload(files);
  if (!first) return;
  const entry = await deps.whenUploaded(first);
  deps.open(`/doc/${entry.id}`);
}

/** Where the browser offers it, takes every launch (the first one too: it waits in the queue until a consumer is set). */
export function consumeLaunches(scope: { launchQueue?: LaunchQueueLike }, deps: LaunchDeps): boolean {
  if (!scope.launchQueue) return false;
  scope.launchQueue.setConsumer((params) => void handleLaunch(params, deps).catch(() => undefined));
  return true;
}
