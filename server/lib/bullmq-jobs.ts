import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  runTry,
  type BackgroundLog,
  type BatchOptions,
  type JobMap,
  type JobObserver,
  type JobOptions,
  type JobQueue,
} from './background.js';

const QUEUE = 'jobs';
const FINISHED = new Set(['completed', 'failed', 'unknown']);

/**
 * Background jobs on BullMQ (scale-out mode): one queue in Redis that every
 * process adds to and works from, so a mail queued by one process may be
 * sent by another, and a job survives the process that queued it. Timed jobs
 * are BullMQ job schedulers: one per name across all processes, so
 * housekeeping runs once per interval however many processes there are.
 */
export class BullJobs<Jobs extends JobMap> implements JobQueue<Jobs> {
  private readonly handlers = new Map<string, { handler: (data: object) => Promise<void>; attempts: number }>();
  private readonly queue: Queue;
  private worker: Worker | null = null;
  /** Ids of jobs this process queued and has not seen finish (for idle()). */
  private readonly mine = new Set<string>();
  /** Adds under way: a caller that does not wait for its enqueue (thumbnails) still counts for idle(). */
  private readonly adding = new Set<Promise<unknown>>();
  private observer: JobObserver | null = null;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly log: BackgroundLog,
    private readonly options: { concurrency?: number; backoffMs?: number } = {},
  ) {
    this.queue = new Queue(QUEUE, { connection, prefix: this.bullPrefix });
    this.queue.on('error', (error) => log.warn({ err: error }, 'job queue error'));
  }

  private get bullPrefix(): string {
    return `${this.prefix}bull`;
  }

  define<K extends keyof Jobs & string>(name: K, handler: (data: Jobs[K]) => Promise<void>, options: JobOptions = {}): void {
    // BullMQ's worker concurrency covers every job name; `options.concurrency` bounds only the in-process runner.
    this.handlers.set(name, { handler: handler as (data: object) => Promise<void>, attempts: options.attempts ?? DEFAULT_ATTEMPTS });
  }

  defineBatch<K extends keyof Jobs & string>(name: K, handler: (items: Jobs[K][]) => Promise<void>, options: BatchOptions = {}): void {
    // A job in Redis is taken by one worker of any process: each is a batch of one here.
    this.define(name, (data) => handler([data]), { attempts: options.attempts });
  }

  async enqueue<K extends keyof Jobs & string>(name: K, data: Jobs[K]): Promise<void> {
    const adding = this.queue.add(name, data, this.jobOptions(name));
    this.adding.add(adding);
    try {
      const job = await adding;
      if (job.id) this.mine.add(job.id);
    } finally {
      this.adding.delete(adding);
    }
  }

  async every<K extends keyof Jobs & string>(name: K, data: Jobs[K], intervalMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(name, { every: intervalMs }, { name, data, opts: this.jobOptions(name) });
  }

  start(): void {
    if (this.worker) return;
    this.worker = new Worker(QUEUE, (job: Job) => this.process(job), {
      connection: this.connection,
      prefix: this.bullPrefix,
      concurrency: this.options.concurrency ?? 4,
    });
    this.worker.on('error', (error) => this.log.warn({ err: error }, 'job worker error'));
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        this.log.warn({ job: job.name, attempts: job.attemptsMade, err: error.message }, 'background job failed');
    });
  }

  async idle(): Promise<void> {
    while (this.adding.size) await Promise.allSettled([...this.adding]);
    while (this.mine.size) {
      for (const id of [...this.mine]) if (FINISHED.has(await this.queue.getJobState(id))) this.mine.delete(id);
      if (this.mine.size) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async waiting(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  observe(observer: JobObserver | null): void {
    this.observer = observer;
  }

  async close(): Promise<void> {
    // Waits for the jobs running here; queued ones stay in Redis for the other processes or the next start.
    await this.worker?.close();
    await this.queue.close();
    this.connection.disconnect();
  }

  private jobOptions(name: string) {
    return {
      attempts: this.handlers.get(name)?.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential' as const, delay: this.options.backoffMs ?? DEFAULT_BACKOFF_MS },
      removeOnComplete: true,
      // A few failed jobs stay for a look with any BullMQ dashboard.
      removeOnFail: 100,
    };
  }

  private async process(job: Job): Promise<void> {
    const definition = this.handlers.get(job.name);
    // Another version of the app may queue a job this one does not know; failing it keeps it visible.
    if (!definition) throw new Error(`No job named ${job.name}`);
    const attempts = job.opts.attempts ?? 1;
    await runTry(this.observer, { name: job.name, attempt: job.attemptsMade + 1, attempts }, () => definition.handler(job.data as object));
  }
}
