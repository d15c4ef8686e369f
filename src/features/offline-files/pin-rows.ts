import { formatBytes } from '../../i18n/format-size';
import type { TranslateFn } from '../../i18n/use-trans';
import { NO_SPACE } from '../../offline/pins/space';
import { pinState, type PinItem, type PinState } from '../../offline/pins/types';

// What the Offline files page says about each pin and about the device, as
// pure functions of the pins (the page renders them; tests read them).

export const STATE_LABELS: Record<PinState, string> = {
  'up-to-date': 'Up to date',
  updating: 'Updating',
  waiting: 'Waiting for network',
  failed: 'Failed',
};

/** Why a pin failed, in words (the sync stores a short code or an HTTP status). */
export function failureText(t: TranslateFn, error: string | null): string {
  if (error === NO_SPACE) return t('Not enough space on this device.');
  if (error === 'gone') return t('It was deleted, or is no longer shared with you.');
  if (error === 'HTTP 403') return t('You may no longer download it.');
  return t('It could not be updated. It is tried again when the app next checks.');
}

export interface PinRow {
  id: string;
  name: string;
  type: 'folder' | 'file';
  state: PinState;
  stateText: string;
  /** "12 MB of 40 MB" while updating, "40 MB" once stored. */
  sizeText: string;
  /** "3 of 10 files" for a folder; null for a file. */
  filesText: string | null;
  /** Why it failed; null unless it did. */
  reason: string | null;
}

export function pinRow(t: TranslateFn, pin: PinItem): PinRow {
  const state = pinState(pin);
  const done = pin.bytesStored >= pin.bytesTotal;
  return {
    id: pin.id,
    name: pin.name,
    type: pin.type,
    state,
    stateText: t(STATE_LABELS[state]),
    sizeText: done
      ? formatBytes(pin.bytesTotal)
      : t(':stored of :total downloaded', { stored: formatBytes(pin.bytesStored), total: formatBytes(pin.bytesTotal) }),
    filesText: pin.type === 'folder' ? t(':stored of :total files', { stored: pin.filesStored, total: pin.filesTotal }) : null,
    reason: state === 'failed' ? failureText(t, pin.error) : null,
  };
}

/** Bytes the pins hold on this device. */
export const storedBytes = (pins: PinItem[]): number => pins.reduce((sum, pin) => sum + pin.bytesStored, 0);

/** What the page says about whether the browser keeps the files. */
export function keepText(t: TranslateFn, persisted: boolean | null): string {
  if (persisted === true) return t('This browser keeps your offline files until you remove them.');
  if (persisted === false) return t('This browser may remove your offline files when the device runs low on space.');
  return t('This browser does not say whether it keeps your offline files.');
}
