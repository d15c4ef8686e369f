import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_POSITION, ToastStore, randomToastId } from '../../src/ui/toast/toast-store';

describe('toast queue', () => {
  let store: ToastStore;
  beforeEach(() => {
    vi.useFakeTimers();
    store = new ToastStore();
  });
  afterEach(() => vi.useRealTimers());

  it('keeps one toast at a time, dropping the oldest', () => {
    store.show('first');
    store.show('second');
    expect(store.getToasts().map((t) => t.message)).toEqual(['second']);
  });

  it('replaces a toast with the same id in place', () => {
    store.show('Uploading...', { id: 'upload', type: 'loading' });
    store.show('Uploaded', { id: 'upload', type: 'positive' });
    const toasts = store.getToasts();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ id: 'upload', message: 'Uploaded', type: 'positive', duration: 3000 });
  });

  it('closes by type: danger after 8000 ms, others after 3000 ms, loading never', () => {
    store.show('bad', { type: 'danger' });
    vi.advanceTimersByTime(7999);
    expect(store.getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getToasts()).toHaveLength(0);

    store.show('ok', { type: 'positive' });
    vi.advanceTimersByTime(2999);
    expect(store.getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getToasts()).toHaveLength(0);

    store.show('working', { type: 'loading' });
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(store.getToasts()).toHaveLength(1);
  });

  it('a replaced toast gets a fresh timer, and a dropped one cannot close the next', () => {
    store.show('a', { id: 'same' });
    vi.advanceTimersByTime(2000);
    store.show('b', { id: 'same' });
    vi.advanceTimersByTime(2000);
    expect(store.getToasts()).toHaveLength(1);

    store.show('c', { id: 'other', type: 'loading' });
    vi.advanceTimersByTime(5000);
    expect(store.getToasts().map((t) => t.id)).toEqual(['other']);
  });

  it('defaults to bottom-center, keeps an action and can be removed on request', () => {
    const onAction = vi.fn();
    const id = store.show('Deleted', { action: { label: 'Undo', action: onAction } });
    const toast = store.getToasts()[0];
    expect(toast?.position).toBe(DEFAULT_POSITION);
    expect(DEFAULT_POSITION).toBe('bottom-center');
    expect(toast?.action?.label).toBe('Undo');
    store.remove(id);
    expect(store.getToasts()).toHaveLength(0);
  });

  it('makes 6-character random ids', () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomToastId()));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(ids.size).toBeGreaterThan(45);
    expect(store.show('x')).toMatch(/^[A-Za-z0-9]{6}$/);
  });
});
