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
 * the query's own fetch writes it back, or another tab does); the server's
 * answer, when there is one, wins.
 */
export function usePaintFirst<T>(read: () => Promise<T | undefined> | T | undefined, deps: unknown[], fresh: T | undefined): PaintFirst<T> {
  const cached = useLiveQuery(read, deps);
  return { data: fresh ?? cached, fromCache: fresh === undefined && cached !== undefined, missing: fresh === undefined && cached === undefined };
}
