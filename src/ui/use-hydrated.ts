import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * False in the server's render of a page and during its hydration, true once React runs the page
 * (at once when the browser renders it itself). A form the server wrote must not submit before its
 * handlers exist: the browser would send it itself, as a GET with the password in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
