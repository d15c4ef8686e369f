import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { LineRow } from '../../../src/features/admin/localizations/LineRow';
import type { Line } from '../../../src/features/admin/appearance-api';
import { makeBootstrap } from '../fixtures';

function renderRows(rows: { line: Line; draft?: string }[]) {
  const client = createQueryClient();
  client.setQueryData(queryKeys.bootstrap, makeBootstrap());
  render(
    <QueryClientProvider client={client}>
      <table>
        <tbody>
          {rows.map(({ line, draft }) => (
            <LineRow key={line.key} line={line} draft={draft} onChange={vi.fn()} />
          ))}
        </tbody>
      </table>
    </QueryClientProvider>,
  );
}

const line = (key: string, value: string | null, overridden = false): Line => ({ key, source: key, value, translated: value !== null, overridden });

describe('the line editor’s rows', () => {
  it('marks lines with no text in this language as untranslated, and only those', () => {
    renderRows([{ line: line('Save', 'Kaydet') }, { line: line('Cancel', null) }, { line: line('Delete', 'Sil', true) }]);
    const rows = screen.getAllByRole('row');
    expect(rows.map((row) => row.hasAttribute('data-untranslated'))).toEqual([false, true, false]);
    expect(within(rows[1]!).getByText('Untranslated')).toBeTruthy();
    expect(within(rows[0]!).queryByText('Untranslated')).toBeNull();
    // The English source stands beside the translation.
    expect(within(rows[1]!).getByText('Cancel')).toBeTruthy();
    expect((within(rows[0]!).getByRole('textbox') as HTMLTextAreaElement).value).toBe('Kaydet');
    expect(within(rows[2]!).getByText('Edited')).toBeTruthy();
  });

  it('follows the draft: typing text clears the mark, emptying a line sets it', () => {
    renderRows([
      { line: line('Cancel', null), draft: 'İptal' },
      { line: line('Save', 'Kaydet'), draft: '' },
    ]);
    const rows = screen.getAllByRole('row');
    expect(within(rows[0]!).queryByText('Untranslated')).toBeNull();
    expect(within(rows[1]!).getByText('Untranslated')).toBeTruthy();
  });
});
