/**
 * Counts by minute over a sliding window, so "errors in the last hour" needs
 * no store: a slot per minute, reused as the clock goes round.
 */
export class RecentCounts {
  private readonly slots: { minute: number; counts: Map<string, number> }[];

  constructor(
    private readonly minutes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = Array.from({ length: minutes }, () => ({ minute: -1, counts: new Map() }));
  }

  add(key: string, n = 1): void {
    const minute = Math.floor(this.now() / 60_000);
    const slot = this.slots[minute % this.minutes]!;
    if (slot.minute !== minute) {
      slot.minute = minute;
      slot.counts.clear();
    }
    slot.counts.set(key, (slot.counts.get(key) ?? 0) + n);
  }

  /** Totals by key within the window, and per minute (oldest first) for a chart. */
  read(): { totals: Record<string, number>; perMinute: { minute: number; counts: Record<string, number> }[] } {
    const current = Math.floor(this.now() / 60_000);
    const totals: Record<string, number> = {};
    const perMinute: { minute: number; counts: Record<string, number> }[] = [];
    for (let minute = current - this.minutes + 1; minute <= current; minute += 1) {
      const slot = this.slots[((minute % this.minutes) + this.minutes) % this.minutes]!;
      const counts: Record<string, number> = {};
      if (slot.minute === minute) {
        for (const [key, n] of slot.counts) {
          counts[key] = n;
          totals[key] = (totals[key] ?? 0) + n;
        }
      }
      perMinute.push({ minute, counts });
    }
    return { totals, perMinute };
  }
}
