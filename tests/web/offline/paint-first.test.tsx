import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { driveDatabase } from '../../../src/offline/db';
import { readListing, writeListingPage, type StoredListing } from '../../../src/offline/listing-cache';
import { usePaintFirst } from '../../../src/offline/paint-first';
import { makeEntry } from '../drive/entries';

const folder = { hash: '0', name: '', permissions: [] };
const page = (id: string) => ({ entries: [makeEntry({ id, name: id })], folder, nextCursor: null, total: null });

describe('usePaintFirst', () => {
  it('follows the device copy live until the server answers, then stops reading it', async () => {
    const db = driveDatabase(9191, '0');
    await writeListingPage(db, 'k', page('a'), { replace: true });
    const read = vi.fn(() => readListing(db, 'k'));
    const { result, rerender } = renderHook(({ fresh }: { fresh: StoredListing | undefined }) => usePaintFirst(read, [db], fresh), {
      initialProps: { fresh: undefined as StoredListing | undefined },
    });
    await waitFor(() => expect(result.current.data?.entries.map((e) => e.id)).toEqual(['a']));
    expect(result.current.fromCache).toBe(true);

    // Before the answer, a write (another tab, the query's own page) shows at once.
    await writeListingPage(db, 'k', page('b'), { replace: false });
    await waitFor(() => expect(result.current.data?.entries.map((e) => e.id)).toEqual(['a', 'b']));

    const answer: StoredListing = { entries: [makeEntry({ id: 'server', name: 'server' })], folder, nextCursor: null, total: 1, updatedAt: 0 };
    rerender({ fresh: answer });
    expect(result.current.data).toBe(answer);
    expect(result.current.fromCache).toBe(false);
    const readsAtAnswer = read.mock.calls.length;

    // Each page the query appends is written to the device; none of them makes the hook read the whole copy again.
    for (const id of ['c', 'd', 'e']) await writeListingPage(db, 'k', page(id), { replace: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(read.mock.calls.length).toBe(readsAtAnswer);
    expect(result.current.data).toBe(answer);
    await db.delete();
  });
});
