import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Conflict, NotFound, ValidationError } from '../../lib/errors.js';
import type { SettingsService } from '../settings/service.js';
import { LocalizationsRepository, type LocalizationRow } from './repository.js';
import { SOURCE_LANGUAGE, shippedLines, sourceLines } from './shipped.js';

export type LocalizationSummary = LocalizationRow;

export const LANGUAGE_NOT_FOUND = 'This language does not exist.';
export const LANGUAGE_TAKEN = 'A language with this code already exists.';
export const DELETE_DEFAULT_LANGUAGE = 'The default language cannot be deleted. Choose another default first.';
export const DELETE_SOURCE_LANGUAGE = 'English cannot be deleted: it is the source of every translation.';
export const UNKNOWN_LINE = 'There is no such line.';
export const LINE_NOT_TEXT = 'Each translation must be text.';

/** One line as the editor shows it: the English source beside this language's text. */
export interface LineView {
  key: string;
  source: string;
  value: string | null;
  /** Whether this language has text for the line (in code or stored). */
  translated: boolean;
  /** Whether an admin's stored text replaces the shipped one. */
  overridden: boolean;
}

/**
 * Languages and their lines. Shipped lines in code are the fallback; stored
 * lines override them. Every write goes through this class, so whatever caches
 * lines (bootstrap data) has one place to learn of a change.
 */
export class LocalizationsService {
  private readonly repo: LocalizationsRepository;

  constructor(
    db: Kysely<Database>,
    private readonly settings: Pick<SettingsService, 'get' | 'set'>,
    /** Texts an admin writes elsewhere (plan names, descriptions, features) that are translated like lines. */
    private readonly contentTexts: () => Promise<string[]> = async () => [],
  ) {
    this.repo = new LocalizationsRepository(db);
  }

  list(): Promise<LocalizationSummary[]> {
    return this.repo.list();
  }

  find(language: string): Promise<LocalizationSummary | undefined> {
    return this.repo.byLanguage(language);
  }

  async get(id: number): Promise<LocalizationSummary> {
    const found = await this.repo.byId(id);
    if (!found) throw NotFound(LANGUAGE_NOT_FOUND);
    return found;
  }

  async defaultLanguage(): Promise<string> {
    const value = await this.settings.get('i18n.default_localization');
    return typeof value === 'string' && value ? value : SOURCE_LANGUAGE;
  }

  /** Remembers a signed-in user's choice on their account. */
  async setUserLanguage(userId: number, language: string): Promise<void> {
    await this.repo.setUserLanguage(userId, language);
  }

  /** The lines in force: shipped ones overlaid by an admin's. */
  async lines(localizationId: number): Promise<Record<string, string>> {
    const loc = await this.repo.byId(localizationId);
    if (!loc) return {};
    return { ...shippedLines(loc.language), ...(await this.repo.storedLines(localizationId)) };
  }

  /** The lines there are: the shipped source, and the content texts, each its own English source. */
  private async sources(): Promise<Record<string, string>> {
    const content = await this.contentTexts();
    return { ...Object.fromEntries(content.map((text) => [text, text])), ...sourceLines };
  }

  /** Every source line with this language's text, for the editor (searching and paging happen on this list). */
  async lineViews(localizationId: number): Promise<LineView[]> {
    const loc = await this.get(localizationId);
    const shipped = shippedLines(loc.language);
    const stored = await this.repo.storedLines(loc.id);
    return Object.entries(await this.sources()).map(([key, source]) => {
      const value = stored[key] ?? shipped[key] ?? null;
      return { key, source, value, translated: !!value, overridden: key in stored };
    });
  }

  /**
   * The language to answer in: the user's choice, else the visitor's cookie,
   * else the site default, else the first that exists.
   */
  async resolve(candidates: (string | null | undefined)[]): Promise<LocalizationSummary | undefined> {
    const all = await this.list();
    for (const candidate of candidates) {
      const found = candidate && all.find((loc) => loc.language === candidate);
      if (found) return found;
    }
    return all[0];
  }

  async create(input: { language: string; name: string }): Promise<LocalizationSummary> {
    if (await this.repo.byLanguage(input.language)) throw ValidationError.field('language', LANGUAGE_TAKEN);
    return this.get(await this.repo.insert(input.language, input.name));
  }

  async rename(id: number, name: string): Promise<LocalizationSummary> {
    await this.get(id);
    await this.repo.rename(id, name);
    return this.get(id);
  }

  async setDefault(id: number): Promise<void> {
    const loc = await this.get(id);
    await this.settings.set({ 'i18n.default_localization': loc.language });
  }

  async delete(id: number): Promise<LocalizationSummary> {
    const loc = await this.get(id);
    if (loc.language === SOURCE_LANGUAGE) throw Conflict(DELETE_SOURCE_LANGUAGE);
    if (loc.language === (await this.defaultLanguage())) throw Conflict(DELETE_DEFAULT_LANGUAGE);
    await this.repo.delete(id);
    return loc;
  }

  /**
   * Stores an admin's text for some lines. `null`, an empty text, or the
   * shipped text removes the override, so the shipped line applies again.
   * Keys that are not source lines are refused as field errors, and nothing is written.
   */
  async setLines(id: number, changes: Record<string, string | null>): Promise<{ changed: number }> {
    const loc = await this.get(id);
    const sources = await this.sources();
    const unknown = Object.keys(changes).filter((key) => !(key in sources));
    if (unknown.length) throw new ValidationError(Object.fromEntries(unknown.map((key) => [`lines.${key}`, [UNKNOWN_LINE]])));
    const shipped = shippedLines(loc.language);
    const set: Record<string, string> = {};
    const unset: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '' || value === shipped[key]) unset.push(key);
      else set[key] = value;
    }
    await this.repo.writeLines(id, set, unset);
    return { changed: Object.keys(changes).length };
  }

  /** A language as a file an admin can edit elsewhere and import again: every line that has text. */
  async exportLines(id: number): Promise<{ language: string; name: string; lines: Record<string, string> }> {
    const loc = await this.get(id);
    const lines = await this.lines(id);
    const known = Object.fromEntries(Object.keys(await this.sources()).flatMap((key) => (lines[key] ? [[key, lines[key]]] : [])));
    return { language: loc.language, name: loc.name, lines: known };
  }

  /**
   * Takes an exported file back. Every value must be text (else field errors
   * and nothing is stored); keys that are not lines are skipped and reported.
   */
  async importLines(id: number, lines: Record<string, unknown>): Promise<{ imported: number; unknown: string[] }> {
    await this.get(id);
    const wrongType = Object.entries(lines).filter(([, value]) => typeof value !== 'string' && value !== null);
    if (wrongType.length) throw new ValidationError(Object.fromEntries(wrongType.map(([key]) => [`lines.${key}`, [LINE_NOT_TEXT]])));
    const sources = await this.sources();
    const unknown = Object.keys(lines).filter((key) => !(key in sources));
    const known = Object.fromEntries(Object.entries(lines).filter(([key]) => key in sources)) as Record<string, string | null>;
    await this.setLines(id, known);
    return { imported: Object.keys(known).length, unknown };
  }
}
