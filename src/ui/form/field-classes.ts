// One look for every form control, so auth and account forms match.
export const inputClass =
  'block w-full rounded border border-divider bg-paper px-3 py-2 text-fg outline-none focus:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 aria-[invalid=true]:border-danger read-only:bg-fg/5 read-only:text-fg-muted disabled:opacity-70';

/** Chromium counts a <select> as :read-only, so inputClass would grey every select out as if it were locked. */
export const selectClass = inputClass.replace(/ read-only:\S+/g, '');

export const primaryButtonClass =
  'inline-flex items-center justify-center rounded bg-primary px-4 py-2 font-semibold text-on-primary hover:bg-primary-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-60';

export const secondaryButtonClass =
  'inline-flex items-center justify-center rounded border border-divider px-4 py-2 font-semibold text-fg hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-60';

export const dangerButtonClass =
  'inline-flex items-center justify-center rounded bg-danger px-4 py-2 font-semibold text-white hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-danger disabled:cursor-not-allowed disabled:opacity-60';

export const linkClass = 'text-primary hover:underline focus-visible:outline-2 focus-visible:outline-primary';
