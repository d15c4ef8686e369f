import { useLiveQuery } from 'dexie-react-hooks';

export interface PaintFirst<T> {
  /** The server's answer once it came in this visit, else the device's copy. */
  data: T | undefined;
  /** Painted from the device's copy (the server has not answered in this visit). */
  fromCache: boolean;
  /** Neither the server nor the device has it yet. */
  missing: boolean;
}

/**
 * Every screen that shows server data paints from IndexedDB first, then
 * revalidates (DESIGN §6). The device's copy is read live (it changes when
 * the query's own fetch writes it back, or another tab does) until the
 * server's answer is there; from then on that answer wins and the copy is no
 * longer read. Reading it on regardless re-ran on every write: a folder of
 * 10k entries, paged in by 100 as the user scrolled, read all of its stored
 * entries back after each page (long tasks up to 266 ms while scrolling).
 */
export function usePaintFirst<T>(read: () => Promise<T | undefined> | T | undefined, deps: unknown[], fresh: T | undefined): PaintFirst<T> {
  const answered = fresh !== undefined;
  const cached = useLiveQuery(() => (answered ? undefined : read()), [...deps, answered]);
  return { data: fresh ?? cached, fromCache: fresh === undefined && cached !== undefined, missing: fresh === undefined && cached === undefined };
}
