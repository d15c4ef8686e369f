import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopSmallWriter, writeSmallFile } from '../../../server/storage/small-writes.js';

/** Issue 37: a small file's bytes go to the disk through one writer thread, with what fs itself would answer. */
describe('the small-file writer', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'small-writes-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a new file, making its folders, byte for byte', async () => {
    const file = path.join(dir, 'a', 'b', 'object');
    const bytes = Buffer.from([0, 1, 2, 250, 255, ...Buffer.from('café')]);
    await writeSmallFile(file, bytes);
    expect(fs.readFileSync(file)).toEqual(bytes);
  });

  it('never overwrites: a file already there fails with EEXIST and keeps its bytes', async () => {
    const file = path.join(dir, 'taken');
    fs.writeFileSync(file, 'first');
    const failure = await writeSmallFile(file, Buffer.from('second')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: 'EEXIST', syscall: 'open', path: file });
    expect(fs.readFileSync(file, 'utf8')).toBe('first');
  });

  it('answers each of many writes in flight at once, a failure only to its own caller', async () => {
    fs.writeFileSync(path.join(dir, 'many-7'), 'there');
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => writeSmallFile(path.join(dir, i === 7 ? 'many-7' : `many/${i % 10}/f-${i}`), Buffer.from(`file ${i}`))),
    );
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect(results[7]).toMatchObject({ status: 'rejected', reason: { code: 'EEXIST' } });
    for (let i = 0; i < 200; i += 1) if (i !== 7) expect(fs.readFileSync(path.join(dir, `many/${i % 10}/f-${i}`), 'utf8')).toBe(`file ${i}`);
  });

  it('answers every write in flight when the thread ends (written, or failed as the thread exited), and the next write starts another', async () => {
    // How many the thread finished before it ended is a race: each must settle one way or the other, none hang.
    const files = Array.from({ length: 50 }, (_, i) => path.join(dir, 'cut', `f-${i}`));
    const inFlight = files.map((file) => writeSmallFile(file, Buffer.from('kept')));
    await stopSmallWriter();
    const settled = await Promise.allSettled(inFlight);
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') expect(fs.readFileSync(files[i]!, 'utf8')).toBe('kept');
      else expect(String(result.reason)).toMatch(/small-file writer exited/);
    });
    const file = path.join(dir, 'after', 'stop');
    await writeSmallFile(file, Buffer.from('written'));
    expect(fs.readFileSync(file, 'utf8')).toBe('written');
  });
});
