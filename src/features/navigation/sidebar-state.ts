import { useEffect } from 'react';
import { atom, useSetAtom } from 'jotai';

// The sidebar's open state is UI state shared by the navbar toggle and the
// drive/account sidebars (which set their initial value by the 576 px rule).
export const SIDEBAR_BREAKPOINT = 576;
export const sidebarOpenAtom = atom(typeof window === 'undefined' ? true : window.innerWidth >= SIDEBAR_BREAKPOINT);

/** How many sidebars the page shows (drive, account settings): the navbar's toggle exists only with one. */
export const sidebarsShownAtom = atom(0);

/** A page with a sidebar says so while it is mounted. */
export function useSidebarShown(): void {
  const setShown = useSetAtom(sidebarsShownAtom);
  useEffect(() => {
    setShown((n) => n + 1);
    return () => setShown((n) => n - 1);
  }, [setShown]);
}
