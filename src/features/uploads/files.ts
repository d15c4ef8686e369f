import { isIgnoredFile } from '../../offline/queues/uploads/rules';

// A file and where it sat inside a chosen or dropped folder.
export interface FileWithPath {
  file: File;
  /** `photos/2024/a.jpg`; null for a file chosen or dropped on its own. */
  relativePath: string | null;
}

export type UploadInput = File | FileWithPath;

/** Files from the folder picker carry webkitRelativePath; others have none. */
export function toFileWithPath(input: UploadInput): FileWithPath {
  if (input instanceof File) return { file: input, relativePath: normalizePath(input.webkitRelativePath) };
  return { file: input.file, relativePath: normalizePath(input.relativePath) };
}

function normalizePath(path: string | null | undefined): string | null {
  const clean = (path ?? '').replace(/^\/+/, '');
  // A bare name has no folders for the server to create.
  return clean.includes('/') ? clean : null;
}

/** Finder's .DS_Store files never go up (spec §2, §4). */
export function withoutIgnored<T extends UploadInput>(inputs: T[]): T[] {
  return inputs.filter((input) => !isIgnoredFile(input instanceof File ? input.name : input.file.name));
}
