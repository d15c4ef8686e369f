// Spec §9: type-ahead in a listing. Letters typed within 500 ms of each other
// build one prefix; the first entry whose name starts with it gets focus.
export const TYPE_AHEAD_RESET = 500;

export class TypeAhead {
  private buffer = '';
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly reset: number = TYPE_AHEAD_RESET) {}

  /** Adds a character and answers the index to focus, or -1. */
  type(char: string, names: string[]): number {
    this.buffer += char.toLowerCase();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.buffer = '';
      this.timer = null;
    }, this.reset);
    return names.findIndex((name) => name.toLowerCase().startsWith(this.buffer));
  }

  get current(): string {
    return this.buffer;
  }
}
