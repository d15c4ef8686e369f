/**
 * Work that must not hold up the request that caused it (notification mail
 * and push, thumbnails) and work on a timer (housekeeping). Jobs are named,
 * carry JSON data, and are retried a bounded number of times with a growing
 * delay; a job that runs out of attempts is logged.
 *
 * `InProcessJobs` is the embedded default; with REDIS_URL, `BullJobs`
 * (bullmq-jobs.ts) runs the same definitions on a queue every process works
 * from, so a job survives the process that queued it. Either way every
 * process defines every handler before `start()`.
 */
export interface BackgroundLog {
  warn(obj: object, msg: string): void;
}

/** Each job's data by name; data crosses processes as JSON, so it holds plain values only. */
export type JobMap = { [name: string]: object };

export interface JobOptions {
  /** Tries before the job is given up and logged (default 3). */
  attempts?: number;
  /** At most this many of this job at once in a process (default: no limit in-process; BullMQ: the worker's). */
  concurrency?: number;
}

/** One try of a job, as an observer sees it (metrics, error reports, traces). */
export interface JobTry {
  name: string;
  /** 1 for the first try. */
  attempt: number;
  /** Tries allowed in all: a try that throws at `attempt === attempts` is the job's failure. */
  attempts: number;
}

/** Wraps every try of every job; it must run `work` once and rethrow what it throws. */
export interface JobObserver {
  run(job: JobTry, work: () => Promise<void>): Promise<void>;
}

/** defineBatch's options: at most `max` jobs are handed over at once (default 100). */
export interface BatchOptions extends Omit<JobOptions, 'concurrency'> {
  max?: number;
}

export interface JobQueue<Jobs extends JobMap> {
  define<K extends keyof Jobs & string>(name: K, handler: (data: Jobs[K]) => Promise<void>, options?: JobOptions): void;
  /**
   * A job worth doing many at once (a burst of new files' text: one read of
   * their rows, one transaction for all): the jobs of this name queued while
   * its handler works are handed to it together when it is free, and tried
   * as one. One batch at a time in a process; on the shared queue each job
   * is a batch of one.
   */
  defineBatch<K extends keyof Jobs & string>(name: K, handler: (items: Jobs[K][]) => Promise<void>, options?: BatchOptions): void;
  /** Resolves once the job is queued (in Redis: stored), not once it ran. */
  enqueue<K extends keyof Jobs & string>(name: K, data: Jobs[K]): Promise<void>;
  /** Runs the job now and then every `intervalMs`: once across all processes, whichever takes it. */
  every<K extends keyof Jobs & string>(name: K, data: Jobs[K], intervalMs: number): Promise<void>;
  start(): void;
  /** Resolves when every job this process queued has finished (tests). */
  idle(): Promise<void>;
  /** Stops taking jobs and waits for those running here. */
  close(): Promise<void>;
  /** Jobs queued and not yet started (here: in this process; on the shared queue: everywhere). */
  waiting(): Promise<number>;
  /** Every later try runs through the observer (one at a time; null removes it). */
  observe(observer: JobObserver | null): void;
}

/** Runs one try through the observer, if any. */
export const runTry = (observer: JobObserver | null, job: JobTry, work: () => Promise<void>): Promise<void> => (observer ? observer.run(job, work) : work());

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 500;

interface Definition {
  handler: (data: object) => Promise<void>;
  attempts: number;
  concurrency: number;
  active: number;
  waiting: (() => void)[];
}

interface BatchDefinition {
  batch: (items: object[]) => Promise<void>;
  attempts: number;
  max: number;
  /** Queued, not yet handed over. */
  pending: object[];
  /** The pass handing pending jobs over, while there are any. */
  draining: boolean;
}

const DEFAULT_BATCH = 100;

export class InProcessJobs<Jobs extends JobMap> implements JobQueue<Jobs> {
  private readonly definitions = new Map<string, Definition | BatchDefinition>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private queued = 0;
  private observer: JobObserver | null = null;

  constructor(
    private readonly log: BackgroundLog,
    private readonly backoffMs = DEFAULT_BACKOFF_MS,
  ) {}

  define<K extends keyof Jobs & string>(name: K, handler: (data: Jobs[K]) => Promise<void>, options: JobOptions = {}): void {
    this.definitions.set(name, {
      handler: handler as (data: object) => Promise<void>,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      concurrency: options.concurrency ?? Infinity,
      active: 0,
      waiting: [],
    });
  }

  defineBatch<K extends keyof Jobs & string>(name: K, handler: (items: Jobs[K][]) => Promise<void>, options: BatchOptions = {}): void {
    this.definitions.set(name, {
      batch: handler as (items: object[]) => Promise<void>,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      max: options.max ?? DEFAULT_BATCH,
      pending: [],
      draining: false,
    });
  }

  async enqueue<K extends keyof Jobs & string>(name: K, data: Jobs[K]): Promise<void> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`No job named ${name}`);
    // Through JSON as on the shared queue, so a handler that works here works in scale-out mode too.
    const copy = JSON.parse(JSON.stringify(data)) as object;
    this.queued += 1;
    if ('batch' in definition) {
      definition.pending.push(copy);
      if (definition.draining) return;
      definition.draining = true;
      const task = this.drain(name, definition).finally(() => this.running.delete(task));
      this.running.add(task);
      return;
    }
    const task = this.attempt(name, definition, copy).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async every<K extends keyof Jobs & string>(name: K, data: Jobs[K], intervalMs: number): Promise<void> {
    const run = () => void this.enqueue(name, data);
    const timer = setInterval(run, intervalMs);
    // Never keeps the process alive on its own.
    timer.unref();
    this.timers.push(timer);
    run();
  }

  start(): void {
    // Jobs run as they are queued.
  }

  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  async waiting(): Promise<number> {
    return this.queued;
  }

  observe(observer: JobObserver | null): void {
    this.observer = observer;
  }

  async close(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.idle();
  }

  /** Hands a batch definition's pending jobs over, at most `max` at a time, until none are left. */
  private async drain(name: string, definition: BatchDefinition): Promise<void> {
    try {
      // Jobs queued in the same turn as the first go with it.
      await new Promise((resolve) => setImmediate(resolve));
      while (definition.pending.length) {
        const items = definition.pending.splice(0, definition.max);
        this.queued -= items.length;
        await this.tries(name, definition.attempts, () => definition.batch(items));
      }
    } finally {
      // In the same turn as the last look at `pending`: a job queued from now on starts the next pass.
      definition.draining = false;
    }
  }

  private async attempt(name: string, definition: Definition, data: object): Promise<void> {
    await this.slot(definition);
    this.queued -= 1;
    try {
      await this.tries(name, definition.attempts, () => definition.handler(data));
    } finally {
      const next = definition.waiting.shift();
      if (next) next();
      else definition.active -= 1;
    }
  }

  /** Runs `work` until it succeeds or its attempts are spent (then logs); never throws. */
  private async tries(name: string, attempts: number, work: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await runTry(this.observer, { name, attempt, attempts }, work);
        return;
      } catch (error) {
        if (attempt >= attempts) {
          this.log.warn({ job: name, attempts: attempt, err: error instanceof Error ? error.message : String(error) }, 'background job failed');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.backoffMs * 2 ** (attempt - 1)));
      }
    }
  }

  private async slot(definition: Definition): Promise<void> {
    if (definition.active < definition.concurrency) {
      definition.active += 1;
      return;
    }
    // The finishing job hands its slot over (active stays counted).
    await new Promise<void>((resolve) => definition.waiting.push(resolve));
  }
}
