import { describe, expect, it } from 'vitest';
import { boxSelect, clickSelect, EMPTY_SELECTION, indicesInBox, moveSelect, pruneSelection, selectAll } from '../../../src/features/drive/lib/selection';

const order = ['a', 'b', 'c', 'd', 'e'];

describe('selection', () => {
  it('a plain click selects only that entry and anchors there', () => {
    const s = clickSelect({ selected: ['a', 'b'], anchor: 'a', focused: 'b' }, order, 'd');
    expect(s).toEqual({ selected: ['d'], anchor: 'd', focused: 'd' });
  });

  it('Ctrl/Cmd toggles one entry, keeping display order', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'd');
    s = clickSelect(s, order, 'b', { toggle: true });
    expect(s.selected).toEqual(['b', 'd']);
    s = clickSelect(s, order, 'd', { toggle: true });
    expect(s.selected).toEqual(['b']);
  });

  it('Shift selects the range from the anchor, either way', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'b');
    s = clickSelect(s, order, 'd', { range: true });
    expect(s.selected).toEqual(['b', 'c', 'd']);
    s = clickSelect(s, order, 'a', { range: true });
    expect(s.selected).toEqual(['a', 'b']);
    expect(s.anchor).toBe('b');
  });

  it('Ctrl+Shift adds a range to what was selected', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'a');
    s = clickSelect(s, order, 'd', { toggle: true });
    s = clickSelect(s, order, 'e', { toggle: true, range: true });
    expect(s.selected).toEqual(['a', 'd', 'e']);
  });

  it('selects all', () => {
    expect(selectAll(EMPTY_SELECTION, order).selected).toEqual(order);
  });

  it('arrows move the focus and selection; Shift extends; the ends clamp', () => {
    let s = moveSelect(EMPTY_SELECTION, order, 1);
    expect(s.selected).toEqual(['a']);
    s = moveSelect(s, order, 1, { range: true });
    s = moveSelect(s, order, 1, { range: true });
    expect(s.selected).toEqual(['a', 'b', 'c']);
    s = moveSelect(s, order, 10);
    expect(s).toEqual({ selected: ['e'], anchor: 'e', focused: 'e' });
    expect(moveSelect(s, order, -Infinity).focused).toBe('a');
    expect(moveSelect(EMPTY_SELECTION, order, -1).focused).toBe('e');
  });

  it('the drag box selects what it covers, or adds it with a modifier', () => {
    expect(boxSelect(EMPTY_SELECTION, order, ['d', 'b']).selected).toEqual(['b', 'd']);
    expect(boxSelect({ selected: ['a'], anchor: 'a', focused: 'a' }, order, ['c'], { toggle: true }).selected).toEqual(['a', 'c']);
  });

  it('finds the rows and cards a box touches', () => {
    const list = { count: 10, columns: 1, itemWidth: 500, itemHeight: 48, gap: 0, offsetTop: 0, offsetLeft: 0 };
    expect(indicesInBox({ left: 10, top: 50, right: 20, bottom: 150 }, list)).toEqual([1, 2, 3]);
    const grid = { count: 7, columns: 3, itemWidth: 100, itemHeight: 100, gap: 10, offsetTop: 10, offsetLeft: 10 };
    expect(indicesInBox({ left: 115, top: 115, right: 240, bottom: 250 }, grid)).toEqual([4, 5]);
    expect(indicesInBox({ left: 0, top: 230, right: 400, bottom: 400 }, grid)).toEqual([6]);
  });

  it('drops ids that are no longer listed', () => {
    const s = pruneSelection({ selected: ['a', 'x'], anchor: 'x', focused: 'a' }, order);
    expect(s).toEqual({ selected: ['a'], anchor: null, focused: 'a' });
  });
});
