/** Menus present on a new installation; admins edit them later. */
export interface MenuItemSeed {
  id: string;
  label: string;
  action: string;
  type: 'route' | 'link';
  target: string | null;
  roles: number[];
  permissions: string[];
}

export interface MenuSeed {
  name: string;
  positions: string[];
  items: MenuItemSeed[];
}

const item = (id: string, label: string, action: string, permissions: string[] = []): MenuItemSeed => ({
  id,
  label,
  action,
  type: /^[a-z]+:/i.test(action) ? 'link' : 'route',
  target: null,
  roles: [],
  permissions,
});

export const defaultMenus: MenuSeed[] = [
  // Empty at first: the top bar shows nothing extra until an admin adds links (e.g. to custom pages).
  { name: 'Navbar', positions: ['navbar'], items: [] },
  {
    name: 'User menu',
    positions: ['user-menu'],
    items: [item('um-account', 'Account settings', '/account-settings'), item('um-admin', 'Admin area', '/admin', ['admin.access'])],
  },
  {
    name: 'Mobile menu',
    positions: ['mobile-menu'],
    items: [
      item('mm-drive', 'My drive', '/drive'),
      item('mm-pricing', 'Pricing', '/pricing'),
      item('mm-account', 'Account settings', '/account-settings'),
      item('mm-admin', 'Admin area', '/admin', ['admin.access']),
    ],
  },
  {
    name: 'Footer',
    positions: ['footer'],
    items: [item('ft-privacy', 'Privacy Policy', '/pages/privacy-policy'), item('ft-terms', 'Terms of Service', '/pages/terms-of-service')],
  },
];
