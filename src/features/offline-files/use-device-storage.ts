import { useCallback, useEffect, useState } from 'react';
import { askToKeep, readDeviceStorage, type DeviceStorage } from './device-storage';

/** The device's storage as the browser reports it, read again whenever `revision` changes (a pin stored more bytes). */
export function useDeviceStorage(revision: unknown) {
  const [storage, setStorage] = useState<DeviceStorage | null>(null);
  const reload = useCallback(async () => {
    const read = await readDeviceStorage();
    setStorage(read);
    return read;
  }, []);

  useEffect(() => {
    let live = true;
    void readDeviceStorage().then((read) => {
      if (live) setStorage(read);
    });
    return () => {
      live = false;
    };
  }, [revision]);

  const keep = useCallback(async () => {
    const answer = await askToKeep();
    await reload();
    return answer;
  }, [reload]);

  return { storage, reload, keep };
}
