import { atom } from 'jotai';

// The sidebar's open state is UI state shared by the navbar toggle and the
// drive/account sidebars (which set their initial value by the 576 px rule).
export const SIDEBAR_BREAKPOINT = 576;
export const sidebarOpenAtom = atom(typeof window === 'undefined' ? true : window.innerWidth >= SIDEBAR_BREAKPOINT);
