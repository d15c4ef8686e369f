import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

/**
 * Reading a .docx (an OPC zip package) within fixed bounds, so a zip bomb or
 * a package of a million parts is refused in bounded memory and time: the
 * entry count, each part's inflated size and the total are capped, and yauzl
 * checks every part inflates to exactly the size its directory declares (a
 * part that lies about its size fails while inflating, not after).
 */
export const PACKAGE_LIMITS = {
  /** The stored file itself. */
  fileBytes: 40 * 1024 * 1024,
  entries: 2000,
  /** One part, inflated (document.xml, an image). */
  partBytes: 25 * 1024 * 1024,
  /** Every part we inflate, together. */
  totalBytes: 80 * 1024 * 1024,
};

export class PackageError extends Error {
  constructor(readonly reason: 'not-a-package' | 'too-large' | 'missing-part') {
    super(reason);
    this.name = 'PackageError';
  }
}

/** The parts of a package we asked for (by name or prefix), inflated. */
export type Parts = Map<string, Buffer>;

export async function readPackage(bytes: Buffer, wanted: (name: string) => boolean, limits = PACKAGE_LIMITS): Promise<Parts> {
  if (bytes.length > limits.fileBytes) throw new PackageError('too-large');
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, file) =>
      error || !file ? reject(new PackageError('not-a-package')) : resolve(file),
    ),
  );
  if (zip.entryCount > limits.entries) {
    zip.close();
    throw new PackageError('too-large');
  }
  const parts: Parts = new Map();
  let total = 0;
  return new Promise<Parts>((resolve, reject) => {
    const fail = (error: Error) => {
      zip.close();
      reject(error instanceof PackageError ? error : new PackageError('not-a-package'));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(parts));
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName.replace(/^\/+/, '');
      if (name.endsWith('/') || !wanted(name)) return zip.readEntry();
      if (entry.uncompressedSize > limits.partBytes || total + entry.uncompressedSize > limits.totalBytes) return fail(new PackageError('too-large'));
      total += entry.uncompressedSize;
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return fail(error ?? new PackageError('not-a-package'));
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // yauzl stops a part that inflates past its declared size; this is the second lock on the door.
          if (size > entry.uncompressedSize) stream.destroy(new PackageError('too-large'));
          else chunks.push(chunk);
        });
        stream.on('error', (streamError: Error) => fail(streamError));
        stream.on('end', () => {
          parts.set(name, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}
