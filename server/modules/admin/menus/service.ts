import type { MenuInput } from '../../menus/schemas.js';
import type { Menu, MenusService } from '../../menus/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';

/** Admin edits of the stored menus: each goes through `MenusService.write` and into the admin log. */
export class AdminMenusService {
  constructor(
    private readonly menus: MenusService,
    private readonly activity: AdminActivity,
  ) {}

  list(): Promise<Menu[]> {
    return this.menus.list();
  }

  async create(caller: AdminCaller, input: MenuInput): Promise<Menu> {
    const menu = (await this.menus.write({ kind: 'create', input }))!;
    await this.activity.record(caller, { action: 'menu.created', subjectType: 'menu', subjectId: menu.id, subjectLabel: menu.name, details: summary(menu) });
    return menu;
  }

  async update(caller: AdminCaller, id: number, input: MenuInput): Promise<Menu> {
    const menu = (await this.menus.write({ kind: 'update', id, input }))!;
    await this.activity.record(caller, { action: 'menu.updated', subjectType: 'menu', subjectId: id, subjectLabel: menu.name, details: summary(menu) });
    return menu;
  }

  async delete(caller: AdminCaller, id: number): Promise<void> {
    const menu = await this.menus.get(id);
    await this.menus.write({ kind: 'delete', id });
    await this.activity.record(caller, { action: 'menu.deleted', subjectType: 'menu', subjectId: id, subjectLabel: menu.name });
  }
}

const summary = (menu: Menu) => ({ positions: menu.positions, items: menu.items.map((i) => `${i.label} → ${i.action}`) });
