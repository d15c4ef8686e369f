// Spec §4/§9: a drop target accepts entries only after they have hovered over
// it for 400 ms, so dragging across rows never drops by accident. Counting
// enter/leave pairs keeps children (icons, labels) from resetting the timer.
export const DROP_ACTIVATION_DELAY = 400;

export class DropActivation {
  private depth = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private active = false;

  constructor(
    private readonly onChange: (active: boolean) => void = () => undefined,
    private readonly delay: number = DROP_ACTIVATION_DELAY,
  ) {}

  get isActive(): boolean {
    return this.active;
  }

  get isOver(): boolean {
    return this.depth > 0;
  }

  enter(): void {
    this.depth += 1;
    if (this.depth > 1 || this.active) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.setActive(true);
    }, this.delay);
  }

  leave(): void {
    this.depth = Math.max(0, this.depth - 1);
    if (this.depth === 0) this.reset();
  }

  /** The drop: true when the target had been activated; the target resets either way. */
  drop(): boolean {
    const accepted = this.active;
    this.reset();
    return accepted;
  }

  reset(): void {
    this.depth = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.setActive(false);
  }

  private setActive(active: boolean): void {
    if (this.active === active) return;
    this.active = active;
    this.onChange(active);
  }
}
