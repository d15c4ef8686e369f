import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DROP_ACTIVATION_DELAY, DropActivation } from '../../../src/features/drive/lib/drop-activation';
import { TypeAhead } from '../../../src/features/drive/lib/type-ahead';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('drop activation delay (spec §9: 400 ms)', () => {
  it('activates only after 400 ms of hovering', () => {
    const changes: boolean[] = [];
    const target = new DropActivation((active) => changes.push(active));
    expect(DROP_ACTIVATION_DELAY).toBe(400);
    target.enter();
    vi.advanceTimersByTime(399);
    expect(target.isActive).toBe(false);
    vi.advanceTimersByTime(1);
    expect(target.isActive).toBe(true);
    expect(changes).toEqual([true]);
  });

  it('ignores a drop before activation and accepts one after', () => {
    const target = new DropActivation();
    target.enter();
    vi.advanceTimersByTime(200);
    expect(target.drop()).toBe(false);
    vi.advanceTimersByTime(400);
    expect(target.isActive).toBe(false);

    target.enter();
    vi.advanceTimersByTime(400);
    expect(target.drop()).toBe(true);
    expect(target.isActive).toBe(false);
  });

  it('restarts when the pointer leaves, but not when it crosses the target’s children', () => {
    const target = new DropActivation();
    target.enter();
    vi.advanceTimersByTime(300);
    target.enter(); // a child
    target.leave(); // back to the target
    vi.advanceTimersByTime(100);
    expect(target.isActive).toBe(true);

    target.leave();
    expect(target.isActive).toBe(false);
    target.enter();
    vi.advanceTimersByTime(300);
    target.leave();
    vi.advanceTimersByTime(500);
    expect(target.isActive).toBe(false);
  });
});

describe('type-ahead (spec §9: reset after 500 ms)', () => {
  const names = ['Alpha', 'Beta', 'Bravo', 'Charlie'];

  it('builds a prefix from quick keystrokes and starts over after 500 ms', () => {
    const typeAhead = new TypeAhead();
    expect(typeAhead.type('b', names)).toBe(1);
    vi.advanceTimersByTime(499);
    expect(typeAhead.type('r', names)).toBe(2);
    vi.advanceTimersByTime(500);
    expect(typeAhead.current).toBe('');
    expect(typeAhead.type('c', names)).toBe(3);
    expect(typeAhead.type('x', names)).toBe(-1);
  });
});
