import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Toaster } from '../../src/ui/toast/Toaster';
import { ToastStore, randomToastId, toast, toastStore } from '../../src/ui/toast/toast-store';

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

  it('puts a toast at the bottom centre unless told otherwise', () => {
    store.show('here');
    expect(store.getToasts()[0]?.position).toBe('bottom-center');
    store.show('there', { position: 'top-center' });
    expect(store.getToasts()[0]?.position).toBe('top-center');
  });

  it('tells subscribers about every change, including a toast closing itself, until they unsubscribe', () => {
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.show('one');
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3000);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getToasts()).toEqual([]);
    store.show('two', { id });
    store.remove(id);
    expect(listener).toHaveBeenCalledTimes(4);
    // Removing what is already gone changes nothing, so nobody re-renders.
    store.remove(id);
    expect(listener).toHaveBeenCalledTimes(4);
    unsubscribe();
    store.show('three');
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('makes 6-character random ids', () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomToastId()));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(ids.size).toBeGreaterThan(45);
    expect(store.show('x')).toMatch(/^[A-Za-z0-9]{6}$/);
  });
});

describe('the toaster on screen', () => {
  afterEach(() => {
    act(() => toastStore.clear());
    vi.unstubAllGlobals();
  });

  const Where = () => <p data-testid="where">{useLocation().pathname}</p>;
  const renderToaster = () =>
    render(
      <MemoryRouter initialEntries={['/drive']}>
        <Toaster />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );

  it('shows the message; its action runs once and closes the toast', () => {
    renderToaster();
    const onAction = vi.fn();
    act(() => void toast('Deleted', { action: { label: 'Undo', action: onAction } }));
    expect(screen.getByRole('status').textContent).toContain('Deleted');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('an action that is a path navigates inside the app, one that is an address opens a new tab', () => {
    renderToaster();
    act(() => void toast('Shared', { action: { label: 'Open', action: '/drive/shares' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByTestId('where').textContent).toBe('/drive/shares');

    const open = vi.fn();
    vi.stubGlobal('open', open);
    act(() => void toast('Read more', { action: { label: 'Docs', action: 'https://example.com/help' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Docs' }));
    expect(open).toHaveBeenCalledWith('https://example.com/help', '_blank', 'noopener');
    expect(screen.getByTestId('where').textContent).toBe('/drive/shares');
  });

  it('a danger toast is announced as an alert, and Close removes it', () => {
    renderToaster();
    act(() => void toast.danger('Could not save'));
    expect(screen.getByRole('alert').textContent).toContain('Could not save');
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(toastStore.getToasts()).toEqual([]);
  });
});
