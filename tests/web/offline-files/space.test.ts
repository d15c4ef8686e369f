import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../../src/i18n/format-message';
import { failureText, keepText, pinRow } from '../../../src/features/offline-files/pin-rows';
import { availableBytes, NO_SPACE, shortfall } from '../../../src/offline/pins/space';
import { makePin } from './pins';

const t = (key: string, values?: Record<string, unknown>) => formatMessage(key, values);

describe('whether a pin fits on the device', () => {
  it('compares what is missing with what the browser still gives the site', async () => {
    const estimate = async () => ({ usage: 900, quota: 1000 });
    expect(await availableBytes(estimate)).toBe(100);
    expect(await shortfall(100, estimate)).toBe(0);
    expect(await shortfall(150, estimate)).toBe(50);
  });

  it('lets the download try when the browser does not say', async () => {
    expect(await availableBytes(null)).toBeNull();
    expect(await shortfall(1e12, null)).toBe(0);
    expect(await shortfall(1e12, async () => ({}))).toBe(0);
    expect(
      await shortfall(1e12, async () => {
        throw new Error('no');
      }),
    ).toBe(0);
  });
});

describe('what the page says about a pin', () => {
  it('names why a pin failed', () => {
    expect(failureText(t, NO_SPACE)).toBe('Not enough space on this device.');
    expect(failureText(t, 'gone')).toBe('It was deleted, or is no longer shared with you.');
    expect(failureText(t, 'HTTP 403')).toBe('You may no longer download it.');
    expect(failureText(t, 'HTTP 422')).toBe('It could not be updated. It is tried again when the app next checks.');
  });

  it('gives sizes, file counts and the state', () => {
    expect(pinRow(t, makePin({ id: 'a', bytesTotal: 2048, bytesStored: 1024, filesTotal: 2, filesStored: 1, status: 'inProgress' }))).toMatchObject({
      state: 'updating',
      stateText: 'Updating',
      sizeText: '1 KB of 2 KB downloaded',
      filesText: '1 of 2 files',
      reason: null,
    });
    expect(pinRow(t, makePin({ id: 'b', type: 'file', bytesTotal: 10, bytesStored: 10 }))).toMatchObject({
      state: 'up-to-date',
      sizeText: '10 B',
      filesText: null,
    });
    expect(pinRow(t, makePin({ id: 'c', status: 'failed', error: NO_SPACE }))).toMatchObject({
      stateText: 'Failed',
      reason: 'Not enough space on this device.',
    });
    expect(pinRow(t, makePin({ id: 'd', status: 'pending', waitingForNetwork: true }))).toMatchObject({ state: 'waiting', stateText: 'Waiting for network' });
  });

  it('says whether the browser keeps the files', () => {
    expect(keepText(t, true)).toMatch(/keeps your offline files/);
    expect(keepText(t, false)).toMatch(/may remove/);
    expect(keepText(t, null)).toMatch(/does not say/);
  });
});
