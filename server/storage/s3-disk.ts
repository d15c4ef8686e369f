import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, ObjectMissingError, type ByteRange, type Disk, type Leftovers, type ListedObject, type StoredObject } from './disk.js';

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/** A part of a multipart upload as the store has it. */
export interface StoredPart {
  PartNumber: number;
  ETag: string;
  Size: number;
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Checksums only when an operation demands one: S3-compatible stores differ in what they accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

class Counter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Objects in an S3-compatible bucket under one key prefix (`drive/`,
 * `avatars/`). S3 writes are atomic (an object appears whole or not at all),
 * so there are no temporary files or empty folders to leave behind. Also
 * signs the short-lived URLs of direct uploads and redirected downloads.
 */
export class S3Disk implements Disk {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
    private readonly root: string,
  ) {}

  /** The object's key in the bucket. */
  objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.root}/${key}`;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const counter = new Counter();
    const stream = new PassThrough();
    // Both directions of failure: a failing source aborts the upload, a failing upload stops the source.
    const piping = pipeline(body, counter, stream);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: stream },
      queueSize: 2,
      partSize: 8 * 1024 * 1024,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([upload.done(), piping]);
    } catch (error) {
      stream.destroy();
      await upload.abort().catch(() => undefined);
      throw error;
    }
    return { size: counter.bytes };
  }

  async putBytes(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: bytes, ContentLength: bytes.length }));
  }

  async adopt(key: string, localFile: string): Promise<void> {
    await this.put(key, createReadStream(localFile, { highWaterMark: 1024 * 1024 }));
    await fs.rm(localFile, { force: true });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(result.Body instanceof Readable)) throw new Error('The S3 client did not answer with a stream.');
      return result.Body;
    } catch (error) {
      if (isMissing(error)) throw new ObjectMissingError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: Number(head.ContentLength ?? 0), modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys: string[] = [];
    for await (const object of this.list(prefix)) keys.push(this.objectKey(object.key));
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  async *list(prefix?: string): AsyncGenerator<ListedObject> {
    const base = prefix ? `${this.objectKey(prefix)}/` : `${this.root}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: base, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.root.length + 1), size: Number(object.Size ?? 0), modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async release(key: string, localFile: string): Promise<void> {
    await pipeline(await this.get(key), createWriteStream(localFile));
    await this.delete(key);
  }

  async leftovers(): Promise<Leftovers> {
    return { temporaryFiles: [], emptyFolders: [] };
  }

  async removeLeftovers(): Promise<void> {}

  /** A short-lived GET, with the download's own disposition and type (the store sends them, not the app). */
  signedGet(key: string, options: { expiresIn: number; contentDisposition: string; contentType: string }): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ResponseContentDisposition: options.contentDisposition,
        ResponseContentType: options.contentType,
      }),
      { expiresIn: options.expiresIn },
    );
  }

  /** A short-lived PUT of exactly `size` bytes of `contentType`: the signature covers both. */
  signedPut(key: string, options: { expiresIn: number; size: number; contentType: string }): Promise<string> {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), ContentLength: options.size, ContentType: options.contentType }),
      { expiresIn: options.expiresIn, signableHeaders: new Set(['content-length', 'content-type']) },
    );
  }

  async createMultipart(key: string, contentType: string): Promise<string> {
    const result = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key), ContentType: contentType }));
    if (!result.UploadId) throw new Error('The store did not answer with an upload id.');
    return result.UploadId;
  }

  signedPart(key: string, uploadId: string, partNumber: number, expiresIn: number): Promise<string> {
    return getSignedUrl(this.client, new UploadPartCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId, PartNumber: partNumber }), {
      expiresIn,
    });
  }

  /** Every part the store holds for the upload, in order (ListParts, page by page). */
  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListPartsCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) {
        if (part.PartNumber !== undefined && part.ETag) parts.push({ PartNumber: part.PartNumber, ETag: part.ETag, Size: Number(part.Size ?? 0) });
      }
      if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
      marker = page.NextPartNumberMarker;
    }
  }

  async completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId, MultipartUpload: { Parts: parts } }),
    );
  }

  /** A missing upload (already aborted or completed) is not an error. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId }));
    } catch (error) {
      if (!(error instanceof S3ServiceException && (error.name === 'NoSuchUpload' || error.$metadata.httpStatusCode === 404))) throw error;
    }
  }
}
