import { describe, expect, it } from 'vitest';
import { InProcessJobs } from '../../../server/lib/background.js';

type Jobs = { work: { n: number }; flaky: { n: number } };

describe('in-process background jobs (the embedded default)', () => {
  it('runs a job with a copy of its data, at most `concurrency` at once', async () => {
    const jobs = new InProcessJobs<Jobs>({ warn: () => undefined });
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    jobs.define(
      'work',
      async ({ n }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(n);
        running -= 1;
      },
      { concurrency: 2 },
    );
    const data = { n: 0 };
    for (let n = 0; n < 6; n += 1) await jobs.enqueue('work', { n });
    await jobs.enqueue('work', data);
    data.n = 99;
    await jobs.idle();
    expect(seen.sort()).toEqual([0, 0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('retries a failing job, then logs it once', async () => {
    const warnings: object[] = [];
    const jobs = new InProcessJobs<Jobs>({ warn: (obj) => warnings.push(obj) }, 1);
    let tries = 0;
    jobs.define(
      'flaky',
      async () => {
        tries += 1;
        throw new Error('mail server down');
      },
      { attempts: 2 },
    );
    await jobs.enqueue('flaky', { n: 1 });
    await jobs.idle();
    expect(tries).toBe(2);
    expect(warnings).toEqual([{ job: 'flaky', attempts: 2, err: 'mail server down' }]);
    await expect(jobs.enqueue('work', { n: 1 })).rejects.toThrow(/No job named work/);
  });

  it('hands a batch job what was queued while it worked, one pass at a time and at most `max` at once', async () => {
    const jobs = new InProcessJobs<Jobs>({ warn: () => undefined });
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    let release: () => void = () => undefined;
    jobs.defineBatch(
      'work',
      async (items) => {
        running += 1;
        most = Math.max(most, running);
        batches.push(items.map((item) => item.n));
        // The first pass waits until the test has queued more behind it.
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
      },
      { max: 3 },
    );
    const data = { n: 0 };
    await jobs.enqueue('work', data);
    data.n = 99;
    // Queued in the same turn as the first: they go with it.
    await jobs.enqueue('work', { n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[0, 1]]);
    for (let n = 2; n < 7; n += 1) await jobs.enqueue('work', { n });
    expect(await jobs.waiting()).toBe(5);
    release();
    await jobs.idle();
    expect(batches).toEqual([
      [0, 1],
      [2, 3, 4],
      [5, 6],
    ]);
    expect(most).toBe(1);
    expect(await jobs.waiting()).toBe(0);
    // Once idle, the next job starts a new pass.
    await jobs.enqueue('work', { n: 7 });
    await jobs.idle();
    expect(batches.at(-1)).toEqual([7]);
  });

  it('tries a failing batch as one, then logs it once', async () => {
    const warnings: object[] = [];
    const jobs = new InProcessJobs<Jobs>({ warn: (obj) => warnings.push(obj) }, 1);
    const tried: number[][] = [];
    jobs.defineBatch(
      'flaky',
      async (items) => {
        tried.push(items.map((item) => item.n));
        throw new Error('disk gone');
      },
      { attempts: 2 },
    );
    await jobs.enqueue('flaky', { n: 1 });
    await jobs.enqueue('flaky', { n: 2 });
    await jobs.idle();
    expect(tried).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(warnings).toEqual([{ job: 'flaky', attempts: 2, err: 'disk gone' }]);
  });
});
