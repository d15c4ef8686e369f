import { useTrans } from '../../../i18n/use-trans';
import { formatBytes } from '../../../i18n/format-size';
import { Button } from 'react-aria-components';
import { secondaryButtonClass } from '../../../ui/form/field-classes';
import { usePinState, usePins } from '../../../offline/pins/client';
import { pinState } from '../../../offline/pins/types';
import type { FileEntry } from '../api/types';
import { usePinActions } from './use-offline-files';

const STATE_LABEL = {
  'up-to-date': 'Available offline',
  updating: 'Updating offline copy',
  waiting: 'Waiting for network',
  failed: 'Offline copy failed',
} as const;

/** The details panel's offline line: the state and progress, and the button that pins or unpins. */
export function OfflineDetails({ entry }: { entry: FileEntry }) {
  const { t } = useTrans();
  const { pin, unpin } = usePinActions();
  const offline = usePinState(entry.id);
  const own = usePins().find((item) => item.id === entry.id);
  const state = own ? pinState(own) : offline?.state;
  return (
    <div data-testid="offline-details">
      <dt className="text-xs text-fg-muted">{t('Offline')}</dt>
      <dd className="flex flex-col items-start gap-2">
        <span>
          {state ? t(STATE_LABEL[state]) : t('Only online')}
          {own && own.bytesTotal > 0 && state !== 'up-to-date' && (
            <span className="text-fg-muted"> · {t(':stored of :total', { stored: formatBytes(own.bytesStored), total: formatBytes(own.bytesTotal) })}</span>
          )}
          {!own && offline && <span className="text-fg-muted"> · {t('In a folder available offline')}</span>}
        </span>
        {own?.error && <span className="text-danger">{own.error === 'gone' ? t('This item is no longer in the drive.') : own.error}</span>}
        {own ? (
          <Button className={secondaryButtonClass} onPress={() => void unpin([entry])}>
            {t('Remove offline copy')}
          </Button>
        ) : (
          <Button className={secondaryButtonClass} onPress={() => void pin([entry])}>
            {t('Make available offline')}
          </Button>
        )}
      </dd>
    </div>
  );
}
