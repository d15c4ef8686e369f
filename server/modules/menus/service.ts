import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { NotFound } from '../../lib/errors.js';
import { parseJson } from '../../lib/json.js';
import { nowIso } from '../../lib/time.js';
import { can, type PermissionHolder } from '../permissions/policy.js';
import type { MenuItemSeed } from './defaults.js';
import { linkAction, type MenuInput } from './schemas.js';

export const MENU_NOT_FOUND = 'This menu does not exist.';

export interface Menu {
  id: number;
  name: string;
  positions: string[];
  items: MenuItemSeed[];
  updated_at: string;
}

/** A change to the stored menus; every write is one of these. */
export type MenuWrite = { kind: 'create'; input: MenuInput } | { kind: 'update'; id: number; input: MenuInput } | { kind: 'delete'; id: number };

export interface MenuViewer extends PermissionHolder {
  roles: { id: number }[];
}

const SCHEME = /^[a-z][a-z\d+\-.]*:/i;

/** Stored menus (spec §3 "Menu") and who sees which item (spec §6). */
export class MenusService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Called after every successful write (the place to drop cached bootstrap data). */
    private readonly onChange: () => void | Promise<void> = () => {},
  ) {}

  async list(): Promise<Menu[]> {
    const rows = await this.db.selectFrom('menus').selectAll().orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      positions: parseJson<string[]>(row.positions, []),
      items: parseJson<MenuItemSeed[]>(row.items, []),
      updated_at: String(row.updated_at),
    }));
  }

  async get(id: number): Promise<Menu> {
    const menu = (await this.list()).find((m) => m.id === id);
    if (!menu) throw NotFound(MENU_NOT_FOUND);
    return menu;
  }

  /**
   * The menus as this visitor may see them: an item shows only with an action,
   * every listed role and every listed permission (spec §6). A guest has no
   * roles and the guest role's permissions. Decided here so that bootstrap
   * data never names links a user may not follow; the app applies the same rule.
   */
  async visibleTo(viewer: MenuViewer) {
    return visibleMenus(await this.list(), viewer);
  }

  /** The one way menus change: every admin write comes through here (and so does `onChange`). */
  async write(change: MenuWrite): Promise<Menu | null> {
    const now = nowIso();
    let id: number | null = null;
    if (change.kind === 'create') {
      const row = await this.db
        .insertInto('menus')
        .values({ ...columns(change.input), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = row.id;
    } else {
      await this.get(change.id);
      if (change.kind === 'update') {
        await this.db
          .updateTable('menus')
          .set({ ...columns(change.input), updated_at: now })
          .where('id', '=', change.id)
          .execute();
        id = change.id;
      } else {
        await this.db.deleteFrom('menus').where('id', '=', change.id).execute();
      }
    }
    await this.onChange();
    return id === null ? null : this.get(id);
  }
}

function columns(input: MenuInput) {
  const seen = new Set<string>();
  const items: MenuItemSeed[] = input.items.map((item) => {
    // Ids keep React keys and active-state stable; a missing or repeated one gets a fresh id.
    const id = item.id && !seen.has(item.id) ? item.id : randomUUID().slice(0, 12);
    seen.add(id);
    return {
      id,
      label: item.label,
      action: item.action,
      type: SCHEME.test(item.action) ? 'link' : 'route',
      target: item.target,
      roles: item.roles,
      permissions: item.permissions,
    };
  });
  return { name: input.name, positions: JSON.stringify(input.positions), items: JSON.stringify(items) };
}

/**
 * The menus with only the items this viewer may see: callers that keep the stored menus (bootstrap) filter per request.
 * An address saved before the check read it as a browser does (`/<TAB>/host`) is served as a browser reads it, or not at all.
 */
export function visibleMenus(menus: Menu[], viewer: MenuViewer) {
  const roleIds = new Set(viewer.roles.map((r) => r.id));
  return menus.map(({ updated_at: _updated, ...menu }) => ({
    ...menu,
    items: menu.items.flatMap((item) => {
      const action = linkAction(item.action);
      if (action === null || !item.roles.every((id) => roleIds.has(id)) || !item.permissions.every((name) => can(viewer, name))) return [];
      return [{ ...item, action, type: SCHEME.test(action) ? ('link' as const) : ('route' as const) }];
    }),
  }));
}
