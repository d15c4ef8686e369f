import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { UploadPanel } from '../../../src/features/uploads';
import { uploadsDatabase } from '../../../src/offline/queues/uploads/db';
import { TOO_LARGE } from '../../../src/offline/queues/uploads/rules';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeItem } from './helpers';

const renderPanel = (userId: number) => {
  const client = createQueryClient();
  client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: userId }) }));
  return render(
    <QueryClientProvider client={client}>
      <UploadPanel />
    </QueryClientProvider>,
  );
};

// The panel clears an earlier visit's finished uploads once per page load, when it first mounts.
// The uploads of these tests belong to this visit: the page has shown its panel once already
// (for a user with no uploads), so no test is the one whose finished uploads that first mount clears.
beforeAll(() => {
  renderPanel(999).unmount();
});

/** The panel's timers under the test's control, so no test waits on the wall clock. */
const fakeTimers = () => {
  // Only the timeouts: IndexedDB and React keep their own scheduling; the clock still moves, so waits end.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
};

describe('upload panel', () => {
  it("lists the user's uploads from IndexedDB with a summary, messages, cancel and retry", async () => {
    await uploadsDatabase().items.bulkPut([
      makeItem({ id: 'done', name: 'report.pdf', status: 'completed', size: 2048, percentage: 100, createdAt: 1 }),
      makeItem({
        id: 'big',
        name: 'movie.mkv',
        status: 'failed',
        retryable: false,
        errorMessage: TOO_LARGE,
        errorValues: { file: 'movie.mkv', size: '1 GB' },
        createdAt: 2,
      }),
      makeItem({ id: 'quota', name: 'b.zip', status: 'failed', errorMessage: 'Over quota', createdAt: 3 }),
      makeItem({ id: 'other', name: 'not-mine.txt', status: 'failed', userId: '2', createdAt: 4 }),
    ]);
    renderPanel(1);

    const panel = await screen.findByRole('region', { name: 'Uploads' });
    expect(within(panel).getByRole('heading').textContent).toBe('2 uploads failed');
    const rows = within(panel).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['report.pdf', 'movie.mkv', 'b.zip']);
    expect(rows[1]?.textContent).toContain('movie.mkv exceeds maximum allowed size of 1 GB');
    // A restriction failure cannot be retried; a server failure can, and either can be dismissed.
    expect(within(rows[1]!).queryByRole('button', { name: 'Retry upload' })).toBeNull();
    expect(within(rows[2]!).getByRole('button', { name: 'Retry upload' })).toBeDefined();
    expect(within(rows[2]!).getByRole('button', { name: 'Cancel upload' })).toBeDefined();
    expect(rows[2]?.textContent).toContain('Over quota');
  });
});

describe('upload panel when everything finished', () => {
  const renderFor = async (userId: number, items: ReturnType<typeof makeItem>[]) => {
    await uploadsDatabase().items.bulkPut(items);
    renderPanel(userId);
    return screen.findByRole('region', { name: 'Uploads' });
  };
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  it('folds its list away a few seconds after the last upload finished', async () => {
    fakeTimers();
    const panel = await renderFor(3, [makeItem({ id: 'ok', userId: '3', name: 'done.txt', status: 'completed', size: 10, percentage: 100, createdAt: 1 })]);
    await waitFor(() => expect(within(panel).getByRole('heading').textContent).toBe('1 upload complete'));
    expect(within(panel).getByRole('button', { name: 'Collapse' }).getAttribute('aria-expanded')).toBe('true');
    await wait(10_000);
    expect(within(panel).getByRole('button', { name: 'Expand' }).getAttribute('aria-expanded')).toBe('false');
    expect(within(panel).queryByRole('listitem')).toBeNull();
  });

  it('stays open while an upload failed, until it is dismissed', async () => {
    fakeTimers();
    const panel = await renderFor(4, [
      makeItem({ id: 'ok4', userId: '4', name: 'done.txt', status: 'completed', size: 10, percentage: 100, createdAt: 1 }),
      makeItem({ id: 'bad4', userId: '4', name: 'bad.txt', status: 'failed', createdAt: 2 }),
    ]);
    await waitFor(() => expect(within(panel).getByRole('heading').textContent).toBe('1 upload failed'));
    await wait(60_000);
    expect(within(panel).getByRole('button', { name: 'Collapse' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(panel).getAllByRole('listitem')).toHaveLength(2);
  });
});
