import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The page call answers `response`; the shell's other calls wait forever. */
function answerPage(response: () => Response) {
  vi.stubGlobal(
    'fetch',
    (input: RequestInfo | URL) =>
      new Promise<Response>((resolve) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('/custom-pages/')) resolve(response());
      }),
  );
}

const page = {
  page: {
    id: 1,
    title: 'About the team',
    slug: 'about',
    body: '<p>We <strong>store</strong> files.</p>',
    meta: { description: 'All about us', keywords: '', og_image: '' },
    visibility: 'public',
    created_at: '2026-11-25T00:00:00Z',
    updated_at: '2026-11-25T00:00:00Z',
  },
  seo: {
    title: 'About the team - Drive',
    tags: [
      { attribute: 'name', key: 'description', content: 'All about us' },
      { attribute: 'property', key: 'og:title', content: 'About the team' },
    ],
  },
};

describe('the custom page screen', () => {
  it('shows the title and body and sets the head tags', async () => {
    answerPage(() => Response.json(page));
    renderApp('/pages/about', makeBootstrap());
    expect(await screen.findByRole('heading', { name: 'About the team' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('store').tagName).toBe('STRONG');
    await waitFor(() => expect(document.title).toBe('About the team - Drive'));
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('All about us');
    expect(document.head.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('About the team');
  }, 20_000);

  it('sends a guest refused with 401 to /login, coming back afterwards', async () => {
    answerPage(() => Response.json({ message: 'Unauthenticated.' }, { status: 401 }));
    const router = renderApp('/pages/members', makeBootstrap());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 15_000 });
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/pages/members')}`);
  }, 20_000);

  it('sends a guest refused with 403 to /login too', async () => {
    answerPage(() => Response.json({ message: 'This action is unauthorized.' }, { status: 403 }));
    const router = renderApp('/pages/members', makeBootstrap());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 15_000 });
  }, 20_000);

  it('shows the not-found page for 404', async () => {
    answerPage(() => Response.json({ message: 'This page does not exist.' }, { status: 404 }));
    renderApp('/pages/nothing', makeBootstrap());
    expect(await screen.findByText("Looks like you've found the doorway to the great nothing", {}, { timeout: 15_000 })).toBeTruthy();
  }, 20_000);

  it('says there was an issue when a signed-in user is refused (no sign-in would help)', async () => {
    answerPage(() => Response.json({ message: 'This action is unauthorized.' }, { status: 403 }));
    const router = renderApp('/pages/staff', makeBootstrap({ user: makeUser() }));
    expect(await screen.findByText('There was an issue loading this page', {}, { timeout: 15_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pages/staff');
  }, 20_000);

  it('says there was an issue for any other error (a server error)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerPage(() => Response.json({ message: 'Server Error' }, { status: 500 }));
    renderApp('/pages/broken', makeBootstrap({ user: makeUser() }));
    expect(await screen.findByText('There was an issue loading this page', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('Please try again later')).toBeTruthy();
  }, 20_000);
});
