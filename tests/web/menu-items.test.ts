import { describe, expect, it } from 'vitest';
import { filterMenuItems, isExternalAction, isMenuItemActive, menuItemsFor } from '../../src/features/navigation/menu-items';
import { makeBootstrap, makeItem, makeUser } from './fixtures';

const perm = (name: string) => ({ name, restrictions: [] });

describe('menu item filtering', () => {
  const items = [
    makeItem({ id: 'open', action: '/drive' }),
    makeItem({ id: 'no-action', action: '' }),
    makeItem({ id: 'admin-area', action: '/admin', permissions: ['admin.access'] }),
    makeItem({ id: 'two-perms', action: '/api-docs', permissions: ['api.access', 'files.update'] }),
    makeItem({ id: 'role', action: '/billing', roles: [3] }),
  ];
  const ids = (list: { id: string }[]) => list.map((i) => i.id);

  it('needs an action, every listed role and every listed permission', () => {
    const user = makeUser({ permissions: [perm('api.access')], roles: [{ id: 3, name: 'subscriber' }] });
    expect(ids(filterMenuItems(items, { user, guest_role: makeBootstrap().guest_role }))).toEqual(['open', 'role']);

    const both = makeUser({ permissions: [perm('api.access'), perm('files.update')] });
    expect(ids(filterMenuItems(items, { user: both, guest_role: makeBootstrap().guest_role }))).toEqual(['open', 'two-perms']);
  });

  it("lets the 'admin' permission grant every permission", () => {
    const admin = makeUser({ permissions: [perm('admin')] });
    expect(ids(filterMenuItems(items, { user: admin, guest_role: makeBootstrap().guest_role }))).toEqual(['open', 'admin-area', 'two-perms']);
  });

  it("uses the guest role's permissions when signed out", () => {
    const guest_role = { id: 99, name: 'guests', permissions: [perm('admin.access')] };
    expect(ids(filterMenuItems(items, { user: null, guest_role }))).toEqual(['open', 'admin-area']);
  });

  it('collects items by menu position', () => {
    const data = makeBootstrap({
      menus: [
        { id: 1, name: 'User', positions: ['user-menu'], items: [makeItem({ id: 'u1' })] },
        { id: 2, name: 'Footer', positions: ['footer', 'mobile-menu'], items: [makeItem({ id: 'f1' })] },
      ],
    });
    expect(ids(menuItemsFor(data, 'mobile-menu'))).toEqual(['f1']);
    expect(ids(menuItemsFor(data, 'user-menu'))).toEqual(['u1']);
  });
});

describe('menu links', () => {
  it('is active when the last path segments match', () => {
    expect(isMenuItemActive({ action: '/drive/trash' }, '/drive/trash')).toBe(true);
    expect(isMenuItemActive({ action: '/account-settings' }, '/account-settings/')).toBe(true);
    expect(isMenuItemActive({ action: '/drive/trash' }, '/drive/starred')).toBe(false);
  });

  it('treats actions with a scheme as external', () => {
    expect(isExternalAction('https://example.com/about')).toBe(true);
    expect(isExternalAction('mailto:hi@example.com')).toBe(true);
    expect(isExternalAction('/pricing')).toBe(false);
  });

  it('never routes a path a browser reads as another host, and routes a stray tab by the cleaned path (issue 30 finding 7)', () => {
    expect(isExternalAction('/\t/evil.example')).toBe(true);
    expect(isExternalAction('/\n/evil.example')).toBe(true);
    expect(isExternalAction('/\\evil.example')).toBe(true);
    const data = makeBootstrap({ menus: [{ id: 1, name: 'Footer', positions: ['footer'], items: [makeItem({ id: 'tab', action: '/pri\tcing' })] }] });
    expect(menuItemsFor(data, 'footer').map((i) => i.action)).toEqual(['/pricing']);
  });
});
