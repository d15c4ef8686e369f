import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_INDICATOR_DELAY_MS, NavigationProgress } from '../../src/ui/NavigationProgress';

describe('NavigationProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows only when loading the next screen takes longer than 500 ms', async () => {
    let finish: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const router = createMemoryRouter(
      [
        { path: '/', element: <NavigationProgress /> },
        {
          path: '/slow',
          lazy: async () => {
            await slow;
            return { Component: () => <p>slow screen</p> };
          },
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    act(() => void router.navigate('/slow'));
    act(() => vi.advanceTimersByTime(LOADING_INDICATOR_DELAY_MS - 1));
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('progressbar')).toBeTruthy();
    await act(async () => finish());
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
