// Spec §7: after 'Updated account details' the page reloads after 1 s.
export const RELOAD_DELAY_MS = 1000;

export function reloadSoon(delay: number = RELOAD_DELAY_MS): void {
  window.setTimeout(() => window.location.reload(), delay);
}
