import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'react-router-dom';
import { formatBytes, storagePercentage } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { pinsClient, usePins } from '../../offline/pins/client';
import type { PinItem } from '../../offline/pins/types';
import { linkClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { FileIcon } from '../drive/components/FileIcon';
import { keepText, pinRow, storedBytes } from './pin-rows';
import { useDeviceStorage } from './use-device-storage';

const STATE_CLASSES = {
  'up-to-date': 'text-positive',
  updating: 'text-primary',
  waiting: 'text-fg-muted',
  failed: 'text-danger',
} as const;

/**
 * Issue 39 item 4: what this device keeps for offline use, how much room the
 * browser gives it and whether it keeps it; each pin's size and state, with
 * unpin, and "Free up space" for bytes nothing holds any more.
 */
export function OfflineFilesPage() {
  const { t } = useTrans();
  const { user } = useBootstrap();
  const userId = user ? String(user.id) : null;
  const pins = usePins();
  const stored = storedBytes(pins);
  const { storage, reload, keep } = useDeviceStorage(stored);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (userId) void pinsClient.connect(userId);
  }, [userId]);

  const freeUp = async () => {
    if (!userId) return;
    setBusy(true);
    try {
      const before = storage?.usage ?? null;
      await pinsClient.freeUpSpace(userId);
      const after = (await reload()).usage;
      const freed = before !== null && after !== null ? before - after : 0;
      toast(freed > 0 ? t('Freed :size', { size: formatBytes(freed) }) : t('Nothing more to free up: every stored byte belongs to a file you keep offline.'));
    } finally {
      setBusy(false);
    }
  };

  const askKeep = async () => {
    const answer = await keep();
    if (answer === false) toast(t('The browser did not agree to keep your offline files. Installing the app usually lets it.'));
  };

  return (
    <div className="flex-1 overflow-y-auto p-4 sm:p-6" data-testid="offline-files">
      <h1 className="mb-4 text-xl font-semibold">{t('Offline files')}</h1>

      <section aria-labelledby="offline-device" className="mb-6 max-w-2xl space-y-3 rounded-lg border border-divider p-4">
        <h2 id="offline-device" className="font-semibold">
          {t('This device')}
        </h2>
        <DeviceSpace usage={storage?.usage ?? null} quota={storage?.quota ?? null} stored={stored} />
        <p data-testid="offline-persisted" data-persisted={String(storage?.persisted ?? null)} className="text-sm">
          {keepText(t, storage?.persisted ?? null)}
        </p>
        <div className="flex flex-wrap gap-2">
          {storage?.persisted === false && (
            <Button onPress={() => void askKeep()} className={secondaryButtonClass}>
              {t('Ask to keep them')}
            </Button>
          )}
          <Button onPress={() => void freeUp()} isDisabled={busy || !userId} className={secondaryButtonClass}>
            {t('Free up space')}
          </Button>
          <Button onPress={() => void pinsClient.refresh()} isDisabled={!pins.length} className={secondaryButtonClass}>
            {t('Check for changes')}
          </Button>
        </div>
      </section>

      {pins.length === 0 ? (
        <p className="max-w-2xl text-fg-muted">
          {t('Nothing is kept on this device yet. Choose "Make available offline" on a file or folder to take it with you.')}
        </p>
      ) : (
        <ul aria-label={t('Offline files')} className="max-w-2xl divide-y divide-divider rounded-lg border border-divider">
          {pins.map((pin) => (
            <PinLine key={pin.id} pin={pin} userId={userId} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DeviceSpace({ usage, quota, stored }: { usage: number | null; quota: number | null; stored: number }) {
  const { t } = useTrans();
  if (usage === null || quota === null) {
    return <p className="text-sm text-fg-muted">{t('This browser does not say how much space it gives this site.')}</p>;
  }
  const text = t(':used of :quota used on this device', { used: formatBytes(usage), quota: formatBytes(quota) });
  const percent = storagePercentage(usage, quota);
  return (
    <div className="text-sm">
      <div
        role="meter"
        aria-label={t('Space on this device')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="mb-1 h-1.5 overflow-hidden rounded bg-fg/10"
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="offline-estimate">{text}</p>
      <p className="text-fg-muted">{t('Offline files: :size', { size: formatBytes(stored) })}</p>
    </div>
  );
}

function PinLine({ pin, userId }: { pin: PinItem; userId: string | null }) {
  const { t } = useTrans();
  const row = pinRow(t, pin);
  const name =
    row.type === 'folder' ? (
      <Link to={`/drive/folders/${row.id}`} className={linkClass}>
        {row.name}
      </Link>
    ) : (
      <span>{row.name}</span>
    );
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="offline-pin" data-state={row.state}>
      <FileIcon entry={{ type: row.type }} className="size-5" />
      <div className="min-w-0 flex-1">
        <div className="truncate font-medium">{name}</div>
        <div className="text-sm text-fg-muted">
          {row.sizeText}
          {row.filesText && ` · ${row.filesText}`}
          {' · '}
          <span className={STATE_CLASSES[row.state]}>{row.stateText}</span>
        </div>
        {row.reason && (
          <p role="status" className="text-sm text-danger">
            {row.reason}
          </p>
        )}
      </div>
      <Button
        onPress={() => {
          if (userId) void pinsClient.unpin(userId, [pin.id]);
        }}
        aria-label={t('Remove the offline copy of :name', { name: pin.name })}
        className={secondaryButtonClass}
      >
        {t('Remove')}
      </Button>
    </li>
  );
}
