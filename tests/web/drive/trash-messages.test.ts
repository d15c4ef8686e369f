import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error';
import { formatMessage } from '../../../src/i18n/format-message';
import { failureMessage, pendingMessage, successMessage } from '../../../src/features/drive/lib/trash-messages';

// The English lines the server seeds for these keys (singular|plural).
const LINES: Record<string, string> = {
  'Moved :count items to trash': 'Moved :count item to trash|Moved :count items to trash',
  'Permanently deleted :count items': 'Permanently deleted :count item|Permanently deleted :count items',
};
const render = (m: { key: string; values?: { count: number } }) => formatMessage(LINES[m.key] ?? m.key, m.values);

describe('trash toasts (spec §7, §8)', () => {
  it('says what it is doing while waiting', () => {
    expect(pendingMessage({ emptyTrash: true }).key).toBe('Emptying trash...');
    expect(pendingMessage({ emptyTrash: false }).key).toBe('Moving to trash...');
    expect(pendingMessage({}).key).toBe('Moving to trash...');
  });

  it('reports each outcome with its count, in singular or plural', () => {
    expect(successMessage({ action: 'trashed', count: 3 })).toEqual({ key: 'Moved :count items to trash', values: { count: 3 } });
    expect(render(successMessage({ action: 'trashed', count: 3 }))).toBe('Moved 3 items to trash');
    expect(render(successMessage({ action: 'trashed', count: 1 }))).toBe('Moved 1 item to trash');
    expect(render(successMessage({ action: 'deleted', count: 2 }))).toBe('Permanently deleted 2 items');
    expect(render(successMessage({ action: 'deleted', count: 1 }))).toBe('Permanently deleted 1 item');
    expect(successMessage({ action: 'emptied', count: 9 })).toEqual({ key: 'Emptied trash' });
  });

  it("shows the server's message on failure, else the spec's fallback", () => {
    const withMessage = new ApiError('badRequest', 404, { message: 'This file or folder does not exist.' });
    expect(failureMessage({ emptyTrash: false }, withMessage).key).toBe('This file or folder does not exist.');
    expect(failureMessage({ emptyTrash: true }, new ApiError('network', 0)).key).toBe('could not empty trash');
    expect(failureMessage({ emptyTrash: false }, new ApiError('badResponse', 500)).key).toBe('Could not delete items');
  });
});
