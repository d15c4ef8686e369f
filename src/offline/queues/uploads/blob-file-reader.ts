import type { FileReader, FileSource, SliceResult } from 'tus-js-client';

// Slices the stored Blob for tus. Given explicitly so that the worker, the
// page and the tests (Node's build of tus-js-client) read files the same way.
class BlobSource implements FileSource {
  readonly size: number;

  constructor(private readonly blob: Blob) {
    this.size = blob.size;
  }

  slice(start: number, end: number): Promise<SliceResult> {
    return Promise.resolve({ value: this.blob.slice(start, end), done: end >= this.size });
  }

  close(): void {
    // A Blob holds no resources to release.
  }
}

export const blobFileReader: FileReader = {
  openFile(input: unknown): Promise<FileSource> {
    if (input instanceof Blob) return Promise.resolve(new BlobSource(input));
    return Promise.reject(new Error('Only Blobs can be uploaded'));
  },
};
