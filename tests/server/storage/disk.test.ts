import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ObjectMissingError, type Disk } from '../../../server/storage/disk.js';
import { LocalDisk } from '../../../server/storage/local-disk.js';
import { createS3Client, S3Disk } from '../../../server/storage/s3-disk.js';
import { PEER_CREDENTIALS, startS3Peer, type S3Peer } from '../../peers/s3-peer.js';
import { DISKS, type TestDisk } from '../support/test-app.js';

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};
const keysOf = async (listing: AsyncIterable<{ key: string }>) => {
  const keys: string[] = [];
  for await (const object of listing) keys.push(object.key);
  return keys.sort();
};

/** The disk interface's contract, held by the local disk and by the S3 disk against a real peer. */
describe.each(DISKS)('the %s disk', (kind: TestDisk) => {
  let disk: Disk;
  let dir: string;
  let peer: S3Peer | null = null;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'disk-test-'));
    if (kind === 'local') {
      disk = new LocalDisk(path.join(dir, 'drive'));
    } else {
      peer = await startS3Peer();
      const client = createS3Client({ endpoint: peer.endpoint, region: 'us-east-1', bucket: peer.bucket, forcePathStyle: true, ...PEER_CREDENTIALS });
      disk = new S3Disk(client, peer.bucket, 'drive');
    }
  });
  afterAll(async () => {
    await peer?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('stores a stream, answers its size, reads it whole and by range', async () => {
    expect(await disk.put('p1/a', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect(await text(await disk.get('p1/a'))).toBe('hello world');
    expect(await text(await disk.get('p1/a', { start: 6, end: 10 }))).toBe('world');
    expect((await disk.stat('p1/a'))?.size).toBe(11);
  });

  it('stores bytes held in memory under a new key, its folder made, and reads them back', async () => {
    await disk.putBytes('pb/a', Buffer.from('small body'));
    expect(await text(await disk.get('pb/a'))).toBe('small body');
    expect((await disk.stat('pb/a'))?.size).toBe(10);
    expect(await keysOf(disk.list('pb'))).toEqual(['pb/a']);
    if (kind === 'local') {
      // Written in place, so never over an object that is there: putBytes is for new keys only.
      await expect(disk.putBytes('pb/a', Buffer.from('other'))).rejects.toMatchObject({ code: 'EEXIST' });
      expect(await text(await disk.get('pb/a'))).toBe('small body');
    }
  });

  it('reads exactly the size the caller knows, on the local disk in one read of that size', async () => {
    await disk.put('p1/sized', Readable.from([Buffer.from('hello world')]));
    // The local disk's reads, by the length each asks for.
    const probe = await fs.open(path.join(dir, 'probe'), 'w');
    const reads = vi.spyOn(Object.getPrototypeOf(probe) as { read: () => unknown }, 'read');
    await probe.close();
    try {
      expect(await text(await disk.get('p1/sized', undefined, 11))).toBe('hello world');
      // One read of the file's size: not a 1 MiB buffer for each small download (garbage), nor a second read to
      // find the end.
      if (kind === 'local') expect(reads.mock.calls.map((call) => (call as unknown[])[2])).toEqual([11]);
    } finally {
      reads.mockRestore();
    }
    expect(await text(await disk.get('p1/sized', { start: 6, end: 10 }, 11))).toBe('world');
  });

  it('stores a stream when its temporary folder went away meanwhile', async () => {
    await disk.put('p0/a', Readable.from([Buffer.from('first')]));
    // The local disk makes its temporary folder when it finds it missing, not before every write.
    if (kind === 'local') await fs.rm(path.join(dir, 'drive', '.tmp'), { recursive: true, force: true });
    expect(await disk.put('p0/b', Readable.from([Buffer.from('second')]))).toEqual({ size: 6 });
    expect(await text(await disk.get('p0/b'))).toBe('second');
  });

  it('stores a stream larger than one S3 part (multipart under the hood) byte for byte', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    expect(await disk.put('p2/big', Readable.from([big]))).toEqual({ size: big.length });
    const chunks: Buffer[] = [];
    for await (const chunk of await disk.get('p2/big')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
  });

  it('answers a missing object with null from stat and ObjectMissingError from get', async () => {
    expect(await disk.stat('nope/x')).toBeNull();
    await expect(disk.get('nope/x')).rejects.toBeInstanceOf(ObjectMissingError);
    await disk.delete('nope/x');
  });

  it('lists everything or one prefix, and deletes a prefix whole', async () => {
    await disk.put('p3/one', Readable.from([Buffer.from('1')]));
    await disk.put('p3/two', Readable.from([Buffer.from('22')]));
    await disk.put('p30/x', Readable.from([Buffer.from('x')]));
    expect(await keysOf(disk.list('p3'))).toEqual(['p3/one', 'p3/two']);
    expect(await keysOf(disk.list())).toEqual(expect.arrayContaining(['p3/one', 'p3/two', 'p30/x']));
    await disk.deletePrefix('p3');
    expect(await keysOf(disk.list('p3'))).toEqual([]);
    expect(await disk.stat('p30/x')).not.toBeNull();
  });

  it('adopts a local file (which is gone afterwards) and releases an object back to one', async () => {
    const file = path.join(dir, 'local.bin');
    await fs.writeFile(file, 'adopted');
    await disk.adopt('p4/f', file);
    await expect(fs.stat(file)).rejects.toThrow();
    expect(await text(await disk.get('p4/f'))).toBe('adopted');
    const back = path.join(dir, 'back.bin');
    await disk.release('p4/f', back);
    expect(await fs.readFile(back, 'utf8')).toBe('adopted');
    expect(await disk.stat('p4/f')).toBeNull();
  });

  it('fails a put whose source fails, leaving no object', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('source broke'));
      },
    });
    await expect(disk.put('p5/broken', failing)).rejects.toThrow(/source broke/);
    expect(await disk.stat('p5/broken')).toBeNull();
  });

  it('refuses keys that are not generated ones', async () => {
    await expect(disk.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(/Unsafe/);
    await expect(disk.get('a/../../b')).rejects.toThrow(/Unsafe/);
  });
});
