import type { IconName } from '../../ui/icons';

// Menu items carry no icon of their own; the icon is chosen by label words.
const RULES: [RegExp, IconName][] = [
  [/drive|file|folder/i, 'folder'],
  [/admin/i, 'shield'],
  [/pric|plan|billing|upgrade/i, 'sell'],
  [/notification/i, 'bell'],
  [/account|profile|settings/i, 'settings'],
  [/home/i, 'home'],
];

export function iconForLabel(label: string): IconName {
  return RULES.find(([pattern]) => pattern.test(label))?.[1] ?? 'link';
}
