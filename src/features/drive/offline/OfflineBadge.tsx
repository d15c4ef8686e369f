import { useTrans } from '../../../i18n/use-trans';
import { Icon, type IconName } from '../../../ui/icons';
import { usePinState } from '../../../offline/pins/client';
import type { PinState } from '../../../offline/pins/types';

const LOOK: Record<PinState, { icon: IconName; label: string; className: string }> = {
  'up-to-date': { icon: 'offlinePin', label: 'Available offline', className: 'text-positive' },
  updating: { icon: 'sync', label: 'Updating offline copy', className: 'text-primary animate-spin [animation-duration:2s]' },
  waiting: { icon: 'schedule', label: 'Waiting for network', className: 'text-fg-muted' },
  failed: { icon: 'error', label: 'Offline copy failed', className: 'text-danger' },
};

/** The offline state of an entry a pin covers (itself, or a folder above it), beside its name. */
export function OfflineBadge({ entryId }: { entryId: string }) {
  const { t } = useTrans();
  const offline = usePinState(entryId);
  if (!offline) return null;
  // Inside a folder whose sync is done, an entry the device does not hold (not downloadable) gets no badge.
  if (!offline.pinned && offline.state === 'up-to-date' && !offline.stored) return null;
  const look = LOOK[offline.state];
  return (
    <span role="img" aria-label={t(look.label)} title={t(look.label)} data-testid="offline-badge" data-state={offline.state} className="inline-flex shrink-0">
      <Icon name={look.icon} className={`size-4 ${look.className}`} />
    </span>
  );
}
