import { useSyncExternalStore } from 'react';
import { Button } from 'react-aria-components';
import { translate } from '../i18n/i18n';
import { applyUpdate, isUpdateWaiting, subscribeToUpdate } from '../offline/sw-registration';

/** Offers the new version once its service worker is waiting. */
export function UpdatePrompt() {
  // The server's render knows of no waiting worker; the browser's check follows hydration.
  const waiting = useSyncExternalStore(subscribeToUpdate, isUpdateWaiting, () => false);
  if (!waiting) return null;
  return (
    <div
      role="alert"
      className="fixed bottom-20 left-1/2 z-[55] flex min-w-[288px] max-w-[500px] -translate-x-1/2 items-center gap-3 rounded-lg bg-paper px-4 py-3 text-sm text-fg shadow-lg ring-1 ring-divider"
    >
      <span className="flex-1">{translate('A new version is available')}</span>
      <Button onPress={applyUpdate} className="rounded bg-primary px-3 py-1 font-semibold text-on-primary focus-visible:outline-2">
        {translate('Reload')}
      </Button>
    </div>
  );
}
