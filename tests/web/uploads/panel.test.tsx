import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { UploadPanel } from '../../../src/features/uploads';
import { uploadsDatabase } from '../../../src/offline/queues/uploads/db';
import { TOO_LARGE } from '../../../src/offline/queues/uploads/rules';
import { makeBootstrap, makeUser } from '../fixtures';
import { makeItem } from './helpers';

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
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: 1 }) }));
    render(
      <QueryClientProvider client={client}>
        <UploadPanel />
      </QueryClientProvider>,
    );

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
