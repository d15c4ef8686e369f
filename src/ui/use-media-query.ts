import { useSyncExternalStore } from 'react';

export const MOBILE_BREAKPOINT = 768;

// The server's render of a page has no window: width queries are answered for the width it sets (a preview
// for a phone), none for a render the browser hydrates (which must answer as the server did: no match).
let serverWidth: number | null = null;

export function setServerViewport(width: number | null): void {
  serverWidth = width;
}

function serverMatches(query: string): boolean {
  if (serverWidth === null) return false;
  const max = /^\(max-width:\s*(\d+)px\)$/.exec(query);
  if (max) return serverWidth <= Number(max[1]);
  const min = /^\(min-width:\s*(\d+)px\)$/.exec(query);
  return min ? serverWidth >= Number(min[1]) : false;
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverMatches(query),
  );
}

/** Below 768 px popovers become modals and the navigation collapses (spec §9). */
export function useIsMobile(): boolean {
  return useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`);
}
