import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { SNIFF_BYTES } from '../drive/kinds.js';

/** What a finished upload's bytes hashed to, and its first bytes (for sniffing its type). */
export interface KnownDigest {
  sha256: string;
  head: Buffer;
}

interface HashState {
  hash: Hash;
  /** How many bytes from the start the hash has seen: the next PATCH must begin here. */
  offset: number;
  head: Buffer[];
  headBytes: number;
  touched: number;
}

/**
 * The tus file store, hashing bytes as they arrive so that a finished upload
 * needs no second read of the whole file for its sha256.
 *
 * The hash state lives in this process between PATCHes, so a resume (the next
 * PATCH at the offset the last one reached) carries on where it stopped. Node
 * cannot serialise a hash's state, so when there is none to carry on from — a
 * PATCH that failed part way (how much reached the disk is unknown), a restart
 * in between — the state is rebuilt once from the bytes already on disk up to
 * the PATCH's offset, and hashing goes on from there. A finish whose state does
 * not cover the whole file gets nothing here and the drive reads the file as
 * before: never a wrong hash, at worst the old cost.
 */
export class HashingFileStore extends FileStore {
  private readonly states = new Map<string, HashState>();

  constructor(private readonly options: { directory: string; expirationPeriodInMilliseconds: number }) {
    super(options);
  }

  override async write(readable: http.IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    let state = this.states.get(id);
    // Taken out while a PATCH is under way: a failure leaves no state that may be ahead of the disk.
    this.states.delete(id);
    if (!state || state.offset !== offset) state = await this.rebuild(id, offset);
    this.prune();
    const current = state;
    const tee = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        current.hash.update(chunk);
        current.offset += chunk.length;
        if (current.headBytes < SNIFF_BYTES) {
          const part = Buffer.from(chunk.subarray(0, SNIFF_BYTES - current.headBytes));
          current.head.push(part);
          current.headBytes += part.length;
        }
        callback(null, chunk);
      },
    });
    pipeline(readable, tee, () => undefined);
    const reached = await super.write(tee, id, offset);
    if (reached === current.offset) {
      current.touched = Date.now();
      this.states.set(id, current);
    }
    return reached;
  }

  /** The digest of an upload whose every byte passed through here, or null (the caller reads the file). */
  digest(id: string, size: number): KnownDigest | null {
    const state = this.states.get(id);
    if (!state || state.offset !== size) return null;
    this.states.delete(id);
    return { sha256: state.hash.digest('hex'), head: Buffer.concat(state.head) };
  }

  /** Drops what is kept for an upload (finished, cancelled or expired). */
  drop(id: string): void {
    this.states.delete(id);
  }

  /** How many uploads have a hash state (tests). */
  get tracked(): number {
    return this.states.size;
  }

  private async rebuild(id: string, offset: number): Promise<HashState> {
    const state: HashState = { hash: createHash('sha256'), offset: 0, head: [], headBytes: 0, touched: Date.now() };
    if (offset === 0) return state;
    await pipelinePromise(
      fs.createReadStream(path.join(this.options.directory, id), { start: 0, end: offset - 1, highWaterMark: 1024 * 1024 }),
      new Transform({
        transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
          state.hash.update(chunk);
          state.offset += chunk.length;
          if (state.headBytes < SNIFF_BYTES) {
            const part = Buffer.from(chunk.subarray(0, SNIFF_BYTES - state.headBytes));
            state.head.push(part);
            state.headBytes += part.length;
          }
          callback();
        },
      }),
    );
    return state;
  }

  /** States of uploads untouched for longer than tus keeps an upload belong to expired ones. */
  private prune(): void {
    const oldest = Date.now() - this.options.expirationPeriodInMilliseconds;
    for (const [id, state] of this.states) if (state.touched < oldest) this.states.delete(id);
  }
}
