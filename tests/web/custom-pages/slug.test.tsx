import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSlugState, slugify, slugReducer } from '../../../src/features/admin/custom-pages/slug';
import { moveItem } from '../../../src/features/admin/menus/reorder';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

afterEach(() => vi.unstubAllGlobals());

describe('page slugs', () => {
  it('makes URL-safe slugs the server accepts', () => {
    expect(slugify('About Us')).toBe('about-us');
    expect(slugify('  Çok Güzel Işık & Şeker!  ')).toBe('cok-guzel-isik-seker');
    expect(slugify('Privacy -- Policy (2026)')).toBe('privacy-policy-2026');
    expect(slugify('Straße')).toBe('strasse');
    expect(slugify('***')).toBe('');
    expect(slugify(`${'a'.repeat(249)} b`)).toMatch(/^a{249}$/);
  });

  it('follows the title until the slug is edited, then keeps it', () => {
    let state = initialSlugState(null);
    state = slugReducer(state, { type: 'title', value: 'Terms' });
    state = slugReducer(state, { type: 'title', value: 'Terms of Service' });
    expect(state.slug).toBe('terms-of-service');
    state = slugReducer(state, { type: 'slug', value: 'tos' });
    state = slugReducer(state, { type: 'title', value: 'Terms of Service 2' });
    expect(state).toEqual({ title: 'Terms of Service 2', slug: 'tos', slugEdited: true });
  });

  it('keeps an existing page’s address when its title changes (links to it exist)', () => {
    const state = slugReducer(initialSlugState({ title: 'Old', slug: 'old-address' }), { type: 'title', value: 'New title' });
    expect(state.slug).toBe('old-address');
  });

  it('moves menu items for the move buttons and drag and drop, clamped at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 9)).toEqual(['a', 'b', 'c']);
  });

  it('in the editor, typing a title fills the slug until the slug field is typed in', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const user = makeUser({
      permissions: [
        { name: 'admin.access', restrictions: [] },
        { name: 'custom_pages.create', restrictions: [] },
        { name: 'custom_pages.view', restrictions: [] },
      ],
    });
    renderApp('/admin/pages/new', makeBootstrap({ user }));
    const title = (await screen.findByLabelText('Title', {}, { timeout: 15_000 })) as HTMLInputElement;
    const slug = screen.getByLabelText('Slug') as HTMLInputElement;
    fireEvent.change(title, { target: { value: 'Hello World' } });
    expect(slug.value).toBe('hello-world');
    fireEvent.change(slug, { target: { value: 'hi' } });
    fireEvent.change(title, { target: { value: 'Hello again' } });
    expect(slug.value).toBe('hi');
    expect(screen.getByRole('tab', { name: 'Rich text' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'HTML source' }));
    expect(screen.getByLabelText('HTML source')).toBeTruthy();
  }, 20_000);
});
