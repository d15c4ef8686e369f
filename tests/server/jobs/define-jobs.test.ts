import { describe, expect, it } from 'vitest';
import { defineJobs, type DriveJobQueue } from '../../../server/jobs/catalog.js';
import type { BatchOptions, JobOptions } from '../../../server/lib/background.js';

describe('defineJobs (issue 31.2: moved out of services.ts)', () => {
  it('defines every job with its handler; thumbnails one at a time and housekeeping tried once', async () => {
    const defined = new Map<string, { handler: (data: never) => Promise<void>; options?: JobOptions | BatchOptions }>();
    const queue = {
      define: (name: string, handler: (data: never) => Promise<void>, options?: JobOptions) => void defined.set(name, { handler, options }),
      // A batch job as the shared queue runs it: one item at a time.
      defineBatch: (name: string, handler: (items: never[]) => Promise<void>, options?: BatchOptions) =>
        void defined.set(name, { handler: (data) => handler([data]), options }),
    };
    const ran: unknown[] = [];
    defineJobs(queue as unknown as DriveJobQueue, {
      send: async (message) => void ran.push(['mail', message.to]),
      deliverPush: async (job) => void ran.push(['push', job.userId]),
      makeThumbnail: async (entryId) => void ran.push(['thumbnail', entryId]),
      extractText: async (entryIds) => void ran.push(['extract-text', entryIds]),
      housekeeping: async () => void ran.push(['housekeeping']),
      retention: async () => void ran.push(['retention']),
      pruneActivity: async () => void ran.push(['activity-prune']),
    });
    expect([...defined.keys()].sort()).toEqual(['activity-prune', 'extract-text', 'housekeeping', 'mail', 'push', 'retention', 'thumbnail']);
    expect(defined.get('thumbnail')!.options).toEqual({ attempts: 1, concurrency: 1 });
    expect(defined.get('extract-text')!.options).toEqual({ attempts: 1, max: 100 });
    expect(defined.get('housekeeping')!.options).toEqual({ attempts: 1 });
    expect(defined.get('retention')!.options).toEqual({ attempts: 1 });
    expect(defined.get('activity-prune')!.options).toEqual({ attempts: 1 });
    await defined.get('mail')!.handler({ to: 'a@example.com' } as never);
    await defined.get('push')!.handler({ userId: 4 } as never);
    await defined.get('thumbnail')!.handler({ entryId: 9 } as never);
    await defined.get('extract-text')!.handler({ entryId: 10 } as never);
    await defined.get('housekeeping')!.handler({} as never);
    await defined.get('retention')!.handler({} as never);
    await defined.get('activity-prune')!.handler({} as never);
    expect(ran).toEqual([
      ['mail', 'a@example.com'],
      ['push', 4],
      ['thumbnail', 9],
      ['extract-text', [10]],
      ['housekeeping'],
      ['retention'],
      ['activity-prune'],
    ]);
  });
});
