// Whether what a pin still has to download fits in the space the browser
// gives the site: checked once the manifest says what is missing, before a
// byte of it is fetched (the page checked the listing's size at pin time, but
// a folder may have grown since). Works in the page and in the worker.

/** The pin's error when its bytes would not fit: the Offline files page says so in words. */
export const NO_SPACE = 'no-space';

type Estimate = () => Promise<StorageEstimate>;

const browserEstimate = (): Estimate | null => (typeof navigator !== 'undefined' && navigator.storage?.estimate ? () => navigator.storage.estimate() : null);

/** Bytes the site may still store here, or null when the browser does not say. */
export async function availableBytes(estimate: Estimate | null = browserEstimate()): Promise<number | null> {
  if (!estimate) return null;
  try {
    const { usage, quota } = await estimate();
    if (usage === undefined || quota === undefined) return null;
    return Math.max(0, quota - usage);
  } catch {
    return null;
  }
}

/** The bytes that would not fit (0 when they do, or when the browser does not say). */
export async function shortfall(needed: number, estimate: Estimate | null = browserEstimate()): Promise<number> {
  const available = await availableBytes(estimate);
  return available === null ? 0 : Math.max(0, needed - available);
}
