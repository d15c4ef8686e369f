import { translate } from '../i18n/i18n';
import { Icon } from './icons';
import { useOnline } from './use-online';

/** A visible banner while the browser has no network (DESIGN §6). */
export function OfflineIndicator() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="status"
      data-testid="offline-indicator"
      className="fixed left-1/2 top-2 z-[55] flex -translate-x-1/2 items-center gap-2 rounded-full bg-warning px-4 py-1.5 text-sm font-medium text-black shadow"
    >
      <Icon name="cloudOff" className="size-4" />
      {translate('You are offline')}
    </div>
  );
}
