/** The trigger's look, shared by the real menu and the placeholder painted while its code loads. */
export const LANGUAGE_BUTTON_CLASS =
  'inline-flex h-10 items-center gap-1 rounded-full px-2 text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary';
