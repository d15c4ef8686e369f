/**
 * Work that must not hold up the request that caused it (notification
 * delivery), run in-process after the caller's commit, retried a bounded
 * number of times with a growing delay, its failures logged. `idle()` lets
 * shutdown and tests wait for what is in flight.
 */
export interface BackgroundLog {
  warn(obj: object, msg: string): void;
}

export class BackgroundJobs {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly log: BackgroundLog,
    private readonly options: { attempts: number; backoffMs: number } = { attempts: 3, backoffMs: 500 },
  ) {}

  run(name: string, job: () => Promise<void>): void {
    const task = this.attempt(name, job).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private async attempt(name: string, job: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await job();
        return;
      } catch (error) {
        if (attempt >= this.options.attempts) {
          this.log.warn({ job: name, attempts: attempt, err: error instanceof Error ? error.message : String(error) }, 'background job failed');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.options.backoffMs * 2 ** (attempt - 1)));
      }
    }
  }
}
