import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';

/** Offline, a listing says so: the device's copy, or that this place was never stored here. */
export function OfflineNotice({ online, hasCopy }: { online: boolean; hasCopy: boolean }) {
  const { t } = useTrans();
  if (online) return null;
  return (
    <p role="status" data-testid="drive-offline-notice" className="mx-4 mt-2 flex items-center gap-2 rounded bg-warning/15 px-3 py-2 text-sm">
      <Icon name="cloudOff" className="size-4 shrink-0" />
      {hasCopy ? t('You are offline. Showing the copy saved on this device.') : t('You are offline and this folder has not been saved on this device yet.')}
    </p>
  );
}
