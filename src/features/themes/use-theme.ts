import { useEffect, useSyncExternalStore } from 'react';
import { useBootstrap } from '../bootstrap/store';
import { ACTIVE_THEME_KEY, applyTheme, readStoredThemeId, resolveActiveTheme, storeThemeChoice, toggledTheme } from './theme-rule';

// localStorage is the store for the choice; components subscribe to it so
// the toggle re-renders, and other tabs follow through the storage event.
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === ACTIVE_THEME_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useActiveTheme() {
  const data = useBootstrap();
  // The server's render has no device choice (the site's theme); a stored one takes over after hydration.
  const storedId = useSyncExternalStore(
    subscribe,
    () => readStoredThemeId(),
    () => null,
  );
  const active = resolveActiveTheme(data, storedId);
  const next = toggledTheme(data, active);
  return {
    active,
    canToggle: !!next,
    toggle: () => {
      if (next && storeThemeChoice(data, next.id)) emit();
    },
  };
}

/** Keeps <html> in step with the active theme. */
export function useApplyActiveTheme(): void {
  const { active } = useActiveTheme();
  useEffect(() => {
    if (active) applyTheme(active);
  }, [active]);
}
