import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { VersionsPanel } from '../../../src/features/drive/components/VersionsPanel';
import { driveKeys } from '../../../src/features/drive/api/keys';
import type { FileVersion } from '../../../src/features/drive/api/versions';
import type { FileEntry } from '../../../src/features/drive/api/types';
import { makeBootstrap, makeUser } from '../fixtures';

const version = (id: number, size: number): FileVersion => ({
  id,
  file_size: size,
  mime: 'text/plain',
  sha256: null,
  created_at: `2026-11-2${id}T08:00:00.000Z`,
  replaced_at: `2026-11-2${id}T09:00:00.000Z`,
  created_by: { id: 1, name: 'Ada Lovelace' },
  preview_url: null,
  download_url: `/api/v1/file-entries/h1/versions/${id}/download`,
});
const entry = { id: 'h1', hash: 'h1', name: 'notes.txt', extension: 'txt', permissions: ['files.view', 'files.update'] } as unknown as FileEntry;

afterEach(() => vi.unstubAllGlobals());

describe('the Versions panel', () => {
  it('paints the last list at once and restores from the new one only', async () => {
    // The last list is two versions old; a restore since has made version 3 the newest.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.endsWith('/file-entries/h1/versions')) throw new Error(`unexpected ${url.pathname}`);
      await answered;
      return Response.json({ versions: [version(3, 30), version(2, 20), version(1, 10)] });
    });
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser() }));
    client.setQueryData([...driveKeys.all(0), 'versions', 'h1'], [version(2, 20), version(1, 10)], { updatedAt: Date.now() - 60_000 });
    render(
      <QueryClientProvider client={client}>
        <VersionsPanel entry={entry} />
      </QueryClientProvider>,
    );

    const rows = () => screen.getAllByTestId('version');
    expect(rows()).toHaveLength(2);
    const restore = () => within(rows()[0]!).getByRole('button', { name: 'Restore' });
    expect(restore().getAttribute('aria-disabled')).toBe('true');
    expect(restore().getAttribute('aria-description')).toBe('Checking for newer versions…');

    await act(async () => answer());
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]!.textContent).toContain('30 B');
    expect(restore().getAttribute('aria-disabled')).toBeNull();
  });
});
