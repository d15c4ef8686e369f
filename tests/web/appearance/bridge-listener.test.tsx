import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPEARANCE_EDITOR_SOURCE } from '../../../src/features/appearance/bridge';
import { makeBootstrap } from '../fixtures';
import { loadRoutes, renderApp } from '../render-app';

/** A window message as the browser delivers it, with the sender's origin. */
function deliver(data: unknown, origin: string) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

const ours = window.location.origin;

describe('the app listening to the appearance editor', () => {
  // The screens' code first, so no test's waits include compiling it (a hook's work, with a hook's time).
  beforeAll(() => loadRoutes('/no-such-page', '/elsewhere'), 60_000);
  afterEach(() => {
    document.documentElement.style.removeProperty('--be-primary');
    document.title = '';
  });

  /**
   * The page can show before the shell's effects have run, and the bridge's listener is added in one of them.
   * The same effects name the document after the site: once the title is set, the listener is there too.
   */
  const shellReady = () => waitFor(() => expect(document.title).toBe('Drive'));

  it('ignores messages from another origin and messages without the editor marker', async () => {
    const router = renderApp('/no-such-page', makeBootstrap());
    await screen.findByText(/404|not found/i);
    await shellReady();
    const themed = document.documentElement.style.getPropertyValue('--be-primary');
    deliver({ source: APPEARANCE_EDITOR_SOURCE, type: 'navigate', to: '/elsewhere' }, 'https://evil.example.com');
    deliver({ source: APPEARANCE_EDITOR_SOURCE, type: 'setThemeColor', name: '--be-primary', value: '1 2 3' }, 'https://evil.example.com');
    deliver({ type: 'navigate', to: '/elsewhere' }, ours);
    deliver({ source: 'another-tool', type: 'setThemeColor', name: '--be-primary', value: '1 2 3' }, ours);
    expect(router.state.location.pathname).toBe('/no-such-page');
    expect(document.documentElement.style.getPropertyValue('--be-primary')).toBe(themed);
    expect(themed).not.toBe('1 2 3');
  });

  it('obeys the marked messages of the editor on our own host', async () => {
    const router = renderApp('/no-such-page', makeBootstrap());
    await screen.findByText(/404|not found/i);
    await shellReady();
    deliver({ source: APPEARANCE_EDITOR_SOURCE, type: 'setThemeColor', name: '--be-primary', value: '1 2 3' }, ours);
    expect(document.documentElement.style.getPropertyValue('--be-primary')).toBe('1 2 3');
    deliver({ source: APPEARANCE_EDITOR_SOURCE, type: 'navigate', to: '/elsewhere' }, ours);
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
