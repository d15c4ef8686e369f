import type { LocalizationsService } from '../../localizations/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';

/** Languages and lines in the admin area: the localizations service's rules, and the activity log. */
export class AdminLocalizationsService {
  constructor(
    private readonly localizations: LocalizationsService,
    private readonly activity: AdminActivity,
  ) {}

  async list() {
    const [all, defaultLanguage] = await Promise.all([this.localizations.list(), this.localizations.defaultLanguage()]);
    return Promise.all(all.map(async (loc) => this.present(loc.id, defaultLanguage)));
  }

  async get(id: number) {
    return this.present(id, await this.localizations.defaultLanguage());
  }

  private async present(id: number, defaultLanguage: string) {
    const loc = await this.localizations.get(id);
    const views = await this.localizations.lineViews(id);
    return { ...loc, default: loc.language === defaultLanguage, translated: views.filter((v) => v.translated).length, total: views.length };
  }

  async create(caller: AdminCaller, input: { language: string; name: string }) {
    const loc = await this.localizations.create(input);
    await this.activity.record(caller, { action: 'localization.created', subjectType: 'localization', subjectId: loc.id, subjectLabel: loc.name });
    return this.get(loc.id);
  }

  async update(caller: AdminCaller, id: number, input: { name: string; default?: true | undefined }) {
    const loc = await this.localizations.rename(id, input.name);
    if (input.default) await this.localizations.setDefault(id);
    await this.activity.record(caller, {
      action: 'localization.updated',
      subjectType: 'localization',
      subjectId: id,
      subjectLabel: loc.name,
      details: { default: input.default === true },
    });
    return this.get(id);
  }

  async delete(caller: AdminCaller, id: number) {
    const loc = await this.localizations.delete(id);
    await this.activity.record(caller, { action: 'localization.deleted', subjectType: 'localization', subjectId: id, subjectLabel: loc.name });
  }

  async lines(id: number, query: { page: number; perPage: number; query?: string | undefined; untranslated?: boolean | undefined }) {
    const localization = await this.get(id);
    const needle = query.query?.toLowerCase();
    const matching = (await this.localizations.lineViews(id)).filter(
      (line) =>
        (!query.untranslated || !line.translated) && (!needle || [line.key, line.source, line.value ?? ''].some((text) => text.toLowerCase().includes(needle))),
    );
    const start = (query.page - 1) * query.perPage;
    return {
      localization,
      pagination: {
        data: matching.slice(start, start + query.perPage),
        current_page: query.page,
        per_page: query.perPage,
        total: matching.length,
        last_page: Math.max(1, Math.ceil(matching.length / query.perPage)),
      },
    };
  }

  async updateLines(caller: AdminCaller, id: number, lines: Record<string, string | null>) {
    const loc = await this.localizations.get(id);
    const result = await this.localizations.setLines(id, lines);
    await this.activity.record(caller, {
      action: 'localization.lines_updated',
      subjectType: 'localization',
      subjectId: id,
      subjectLabel: loc.name,
      details: { keys: Object.keys(lines).slice(0, 50), count: Object.keys(lines).length },
    });
    return result;
  }

  export(id: number) {
    return this.localizations.exportLines(id);
  }

  async import(caller: AdminCaller, id: number, lines: Record<string, unknown>) {
    const loc = await this.localizations.get(id);
    const result = await this.localizations.importLines(id, lines);
    await this.activity.record(caller, {
      action: 'localization.imported',
      subjectType: 'localization',
      subjectId: id,
      subjectLabel: loc.name,
      details: { imported: result.imported, unknown: result.unknown.length },
    });
    return result;
  }
}
