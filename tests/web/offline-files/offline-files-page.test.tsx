import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pinsClient } from '../../../src/offline/pins/client';
import { NO_SPACE } from '../../../src/offline/pins/space';
import { toastStore } from '../../../src/ui/toast/toast-store';
import { makeBootstrap, makeUser } from '../fixtures';
import { loadRoutes, renderApp } from '../render-app';
import { makePin } from './pins';

const MB = 1024 * 1024;

// The page's code loads lazily; load it once so the tests wait only for what they are about.
// The first signed-in render of the drive's layout compiles its lazy parts: that is the hook's cost, not the
// first test's (loadRoutes renders for a guest, who is sent to the login page before the drive loads).
beforeAll(async () => {
  vi.spyOn(pinsClient, 'connect').mockResolvedValue();
  vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  await loadRoutes('/drive/offline');
  renderApp('/drive/offline', makeBootstrap({ user: makeUser({ id: 7000 }) }));
  await screen.findByRole('heading', { name: 'Offline files' }, { timeout: 30_000 });
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}, 60_000);

// jsdom has no navigator.storage: each test says what the browser answers.
const setStorage = (storage: Partial<StorageManager> | undefined) => Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setStorage(undefined);
});

/** What the browser says about storage: `usage` is read on every estimate (so a test can shrink it). */
function stubStorage(options: { usage: () => number; quota: number; persisted: boolean; grants?: boolean }) {
  let persisted = options.persisted;
  const persist = vi.fn(async () => {
    persisted = options.grants ?? false;
    return persisted;
  });
  setStorage({ estimate: async () => ({ usage: options.usage(), quota: options.quota }), persisted: async () => persisted, persist });
  return { persist };
}

/**
 * The page over the user's pins as the store holds them. The sync engine is
 * not run (it would start syncing them and move their states under the
 * test): connect is stubbed and the pins come from the store's snapshot.
 */
async function openPage(id: number, pins: Parameters<typeof makePin>[0][]) {
  // The server never answers here: the page reads the device.
  vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  const user = makeUser({ id });
  const connect = vi.spyOn(pinsClient, 'connect').mockResolvedValue();
  const snapshot = pins.map((pin) => makePin({ userId: String(id), ...pin }));
  vi.spyOn(pinsClient, 'getPins').mockReturnValue(snapshot);
  renderApp('/drive/offline', makeBootstrap({ user }));
  expect(await screen.findByRole('heading', { name: 'Offline files' })).toBeTruthy();
  // The page can show before the layout's effects have run; connecting the store is one of them.
  await waitFor(() => expect(connect).toHaveBeenCalledWith(String(id)));
  return { user };
}

describe('the Offline files page', () => {
  it('is a drive route with its own sidebar entry', async () => {
    stubStorage({ usage: () => 0, quota: 1024 * MB, persisted: true });
    await openPage(7001, []);
    const link = screen.getByRole('link', { name: 'Offline files' });
    expect(link.getAttribute('href')).toBe('/drive/offline');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(screen.getByText(/Nothing is kept on this device yet/)).toBeTruthy();
  });

  it('shows the space the browser gives, whether it keeps the files, and every pin with its size and state', async () => {
    const { persist } = stubStorage({ usage: () => 150 * MB, quota: 1024 * MB, persisted: false, grants: true });
    await openPage(7002, [
      { id: 'trip', name: 'Trip', bytesTotal: 40 * MB, bytesStored: 40 * MB, filesTotal: 10, filesStored: 10, createdAt: 1 },
      { id: 'work', name: 'Work', status: 'inProgress', bytesTotal: 100 * MB, bytesStored: 25 * MB, filesTotal: 8, filesStored: 2, createdAt: 2 },
      { id: 'plan', name: 'plan.pdf', type: 'file', status: 'pending', waitingForNetwork: true, bytesTotal: 2 * MB, filesTotal: 1, createdAt: 3 },
      { id: 'big', name: 'Videos', status: 'failed', error: NO_SPACE, bytesTotal: 9000 * MB, createdAt: 4 },
    ]);

    expect((await screen.findByTestId('offline-estimate')).textContent).toBe('150 MB of 1 GB used on this device');
    expect(screen.getByRole('meter', { name: 'Space on this device' }).getAttribute('aria-valuenow')).toBe('15');
    expect(screen.getByText('Offline files: 65 MB')).toBeTruthy();
    expect(screen.getByTestId('offline-persisted').textContent).toBe('This browser may remove your offline files when the device runs low on space.');

    const rows = await screen.findAllByTestId('offline-pin');
    expect(rows.map((row) => [row.dataset.state, row.textContent])).toEqual([
      ['up-to-date', expect.stringContaining('Trip40 MB · 10 of 10 files · Up to date')],
      ['updating', expect.stringContaining('Work25 MB of 100 MB downloaded · 2 of 8 files · Updating')],
      ['waiting', expect.stringContaining('plan.pdf0 B of 2 MB downloaded · Waiting for network')],
      ['failed', expect.stringContaining('Not enough space on this device.')],
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Trip' }).getAttribute('href')).toBe('/drive/folders/trip');

    // Asked again from the page, the browser's answer is shown.
    fireEvent.click(screen.getByRole('button', { name: 'Ask to keep them' }));
    await waitFor(() => expect(screen.getByTestId('offline-persisted').textContent).toBe('This browser keeps your offline files until you remove them.'));
    expect(persist).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: 'Ask to keep them' })).toBeNull();
  });

  it('unpins a line and frees up space, saying how much was freed', async () => {
    let usage = 300 * MB;
    stubStorage({ usage: () => usage, quota: 1024 * MB, persisted: true });
    await openPage(7003, [{ id: 'trip', name: 'Trip', bytesTotal: 40 * MB, bytesStored: 40 * MB }]);
    const unpin = vi.spyOn(pinsClient, 'unpin').mockResolvedValue();
    const free = vi.spyOn(pinsClient, 'freeUpSpace').mockImplementation(async () => {
      usage = 200 * MB;
    });

    fireEvent.click(await screen.findByRole('button', { name: 'Remove the offline copy of Trip' }));
    expect(unpin).toHaveBeenCalledWith('7003', ['trip']);

    await screen.findByText('300 MB of 1 GB used on this device');
    fireEvent.click(screen.getByRole('button', { name: 'Free up space' }));
    await waitFor(() => expect(free).toHaveBeenCalledWith('7003'));
    await screen.findByText('200 MB of 1 GB used on this device');
    await waitFor(() => expect(toastStore.getToasts().map((toast) => toast.message)).toContain('Freed 100 MB'));
  });

  it('says so when the browser reports neither space nor persistence', async () => {
    setStorage(undefined);
    await openPage(7004, []);
    expect(await screen.findByText('This browser does not say how much space it gives this site.')).toBeTruthy();
    expect(screen.getByTestId('offline-persisted').textContent).toBe('This browser does not say whether it keeps your offline files.');
    await act(async () => undefined);
  });
});
