import type { ThemeInput, ThemesService } from '../../themes/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';

/** Themes in the admin area: the themes service's rules, and the activity log. */
export class AdminThemesService {
  constructor(
    private readonly themes: ThemesService,
    private readonly activity: AdminActivity,
  ) {}

  list() {
    return this.themes.list();
  }

  async create(caller: AdminCaller, input: ThemeInput) {
    const theme = await this.themes.create(input);
    await this.activity.record(caller, { action: 'theme.created', subjectType: 'theme', subjectId: theme.id, subjectLabel: theme.name });
    return theme;
  }

  async update(caller: AdminCaller, id: number, input: ThemeInput) {
    const theme = await this.themes.update(id, input);
    await this.activity.record(caller, {
      action: 'theme.updated',
      subjectType: 'theme',
      subjectId: id,
      subjectLabel: theme.name,
      details: { colors: Object.keys(input.colors) },
    });
    return theme;
  }

  async delete(caller: AdminCaller, id: number) {
    const theme = await this.themes.delete(id);
    await this.activity.record(caller, { action: 'theme.deleted', subjectType: 'theme', subjectId: id, subjectLabel: theme.name });
  }
}
