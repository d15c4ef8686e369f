// What the browser says about the site's storage on this device: how much it
// uses and may use (navigator.storage.estimate) and whether it keeps it when
// space runs low (persisted). Each part is null where the browser does not say.

export interface DeviceStorage {
  /** Bytes the site uses on this device (every cache and database, pinned files included). */
  usage: number | null;
  /** Bytes the browser lets the site use. */
  quota: number | null;
  /** true: kept until the user removes it; false: the browser may clear it under pressure. */
  persisted: boolean | null;
}

type StorageApi = Pick<StorageManager, 'estimate' | 'persisted' | 'persist'>;

const storageApi = (): Partial<StorageApi> | null => (typeof navigator === 'undefined' ? null : (navigator.storage ?? null));

export async function readDeviceStorage(api: Partial<StorageApi> | null = storageApi()): Promise<DeviceStorage> {
  const [estimate, persisted] = await Promise.all([api?.estimate?.().catch(() => null) ?? null, api?.persisted?.().catch(() => null) ?? null]);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}

/** Asks the browser to keep the site's storage (it may answer at once from its own heuristics). */
export async function askToKeep(api: Partial<StorageApi> | null = storageApi()): Promise<boolean | null> {
  if (!api?.persist) return null;
  try {
    return await api.persist();
  } catch {
    return null;
  }
}
