/**
 * S3 multipart sizing (spec §9 "Upload sizing"; MB are 1024² bytes as the
 * spec counts sizes). The server decides the part size and tells the client
 * in `s3/multipart/create`, so both sides count parts the same way.
 */
export const MB = 1024 * 1024;
/** Files this large or larger go through a direct multipart upload; smaller ones through one presigned PUT. */
export const MULTIPART_THRESHOLD = 100 * MB;
const PREFERRED_PART = 20 * MB;
/** S3's own floor for every part but the last. */
const MIN_PART = 5 * MB;
/** S3 allows at most this many parts per upload. */
export const MAX_PARTS = 10_000;
/** Signed part URLs asked for at once. */
export const SIGN_BATCH = 10;

/** At least 20 MB and at least 5 MB, or size / 10000 when that is larger. */
export function partSizeFor(size: number): number {
  return Math.max(PREFERRED_PART, MIN_PART, Math.ceil(size / MAX_PARTS));
}

export function partCountFor(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}
