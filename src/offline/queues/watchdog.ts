/**
 * Fires once when `touch()` has not been called for `timeoutMs` (spec §9:
 * an upload without progress for 30 s times out).
 */
export class Watchdog {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.touch();
  }

  touch(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.onTimeout();
    }, this.timeoutMs);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
