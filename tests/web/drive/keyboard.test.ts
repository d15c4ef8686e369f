import { describe, expect, it } from 'vitest';
import { keyToAction } from '../../../src/features/drive/lib/keyboard';

describe('listing keyboard', () => {
  it('maps Enter, Delete, F2 and Escape', () => {
    expect(keyToAction({ key: 'Enter' })).toEqual({ type: 'open' });
    expect(keyToAction({ key: 'Delete' })).toEqual({ type: 'trash' });
    expect(keyToAction({ key: 'F2' })).toEqual({ type: 'rename' });
    expect(keyToAction({ key: 'Escape' })).toEqual({ type: 'clear' });
  });

  it('selects all with Ctrl+A or Cmd+A only', () => {
    expect(keyToAction({ key: 'a', ctrlKey: true })).toEqual({ type: 'selectAll' });
    expect(keyToAction({ key: 'a', metaKey: true })).toEqual({ type: 'selectAll' });
    expect(keyToAction({ key: 'a' })).toBeNull();
  });

  it('moves by one row in the list and by a row of cards in the grid, Shift extending', () => {
    expect(keyToAction({ key: 'ArrowDown' })).toEqual({ type: 'move', delta: 1, extend: false });
    expect(keyToAction({ key: 'ArrowUp', shiftKey: true })).toEqual({ type: 'move', delta: -1, extend: true });
    expect(keyToAction({ key: 'ArrowRight' })).toBeNull();
    expect(keyToAction({ key: 'ArrowDown' }, 4)).toEqual({ type: 'move', delta: 4, extend: false });
    expect(keyToAction({ key: 'ArrowLeft' }, 4)).toEqual({ type: 'move', delta: -1, extend: false });
    expect(keyToAction({ key: 'End' })).toEqual({ type: 'move', delta: Infinity, extend: false });
  });

  it('leaves other keys to the browser', () => {
    expect(keyToAction({ key: 'Tab' })).toBeNull();
    expect(keyToAction({ key: 'Enter', altKey: true })).toBeNull();
  });
});
