import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import { nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import type { AccessCache, StoredSetting } from '../auth/access-cache.js';
import { insertSecretOnce, storedSettings, storedValue, upsertSettings } from './repository.js';
import { settingDefaults, type SettingDefinition, type SettingKey, type SettingValue } from './defaults.js';

export type SettingsMap = Record<string, SettingValue>;

/** Settings: code defaults overlaid by what is stored in the database. */
export class SettingsService {
  private readonly saved = new Set<(keys: string[]) => void>();

  /**
   * `cache`: the stored rows are read once and remembered until a write to
   * settings (in any process) empties the cache; each call parses its own
   * copy, so no caller can change what the next one reads.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache?: AccessCache,
  ) {}

  private stored(): Promise<readonly StoredSetting[]> {
    return this.cache ? this.cache.settings.get('all', () => storedSettings(this.db)) : storedSettings(this.db);
  }

  /**
   * Called with the keys after each save in this process, for the few parts
   * that hold a setting rather than read it on use (the trace exporter): they
   * follow at once here, and other processes on their own recheck.
   */
  onSaved(listener: (keys: string[]) => void): () => void {
    this.saved.add(listener);
    return () => this.saved.delete(listener);
  }

  /** All settings, flat (`'themes.user_change' → true`); secrets only when asked for. */
  async all({ includePrivate = false } = {}): Promise<SettingsMap> {
    return this.flat(await this.stored(), includePrivate);
  }

  /**
   * What `make` derives from the settings (without secrets), worked out again only when the stored settings
   * changed: for what is asked on every request (the upload rules of every WebDAV PUT). The answer is shared by
   * every caller until then, so it must not be changed.
   */
  async derived<T>(make: (settings: SettingsMap) => T): Promise<T> {
    if (!this.cache) return make(await this.all());
    const rows = await this.stored();
    const held = this.derivations.get(make);
    if (held?.rows === rows) return held.value as T;
    const value = make(this.flat(rows, false));
    this.derivations.set(make, { rows, value });
    return value;
  }

  private readonly derivations = new WeakMap<(settings: SettingsMap) => unknown, { rows: readonly StoredSetting[]; value: unknown }>();

  private flat(rows: readonly StoredSetting[], includePrivate: boolean): SettingsMap {
    const defaults: Record<string, SettingDefinition> = settingDefaults;
    const result: SettingsMap = {};
    for (const [key, def] of Object.entries(defaults)) {
      if (includePrivate || !def.private) result[key] = def.value;
    }
    for (const row of rows) {
      const isPrivate = row.private === 1 || defaults[row.key]?.private === true;
      if (includePrivate || !isPrivate) result[row.key] = parseJson<SettingValue>(row.value, null);
    }
    return result;
  }

  async get<K extends SettingKey>(key: K): Promise<(typeof settingDefaults)[K]['value'] | SettingValue> {
    const value = this.cache ? (await this.stored()).find((row) => row.key === key)?.value : await storedValue(this.db, key);
    return value !== undefined ? parseJson<SettingValue>(value, settingDefaults[key].value) : settingDefaults[key].value;
  }

  /** A secret for signing, created once per installation and shared by every process through the database. */
  async appKey(): Promise<string> {
    const current = await this.get('app.key');
    if (typeof current === 'string' && current) return current;
    await insertSecretOnce(this.db, 'app.key', JSON.stringify(randomToken(48)), nowIso());
    const stored = await this.get('app.key');
    if (typeof stored !== 'string' || !stored) throw new Error('could not create app.key');
    return stored;
  }

  /**
   * The web push VAPID key pair, created once per installation (like app.key)
   * and shared by every process through the database: subscriptions made
   * against the public key keep working across restarts.
   */
  async vapidKeys(generate: () => { publicKey: string; privateKey: string }): Promise<{ publicKey: string; privateKey: string }> {
    const read = async () => {
      const value = await this.get('notifications.vapid');
      if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.publicKey === 'string' && typeof value.privateKey === 'string') {
        return { publicKey: value.publicKey, privateKey: value.privateKey };
      }
      return null;
    };
    const current = await read();
    if (current) return current;
    await insertSecretOnce(this.db, 'notifications.vapid', JSON.stringify(generate()), nowIso());
    const stored = await read();
    if (!stored) throw new Error('could not create the VAPID keys');
    return stored;
  }

  async set(values: Record<string, SettingValue>): Promise<void> {
    const defaults: Record<string, SettingDefinition> = settingDefaults;
    const rows = Object.entries(values).map(([key, value]) => ({ key, value: JSON.stringify(value), private: defaults[key]?.private ? 1 : 0 }));
    await upsertSettings(this.db, rows, nowIso());
    const keys = Object.keys(values);
    for (const listener of this.saved) listener(keys);
  }
}

/** `{'a.b': 1, 'a.c': 2}` → `{a: {b: 1, c: 2}}`, for the nested shape clients read. */
export function nestSettings(flat: SettingsMap): Record<string, SettingValue> {
  const root: Record<string, SettingValue> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
      node = node[part] as Record<string, SettingValue>;
    }
    node[parts[parts.length - 1]!] = value;
  }
  return root;
}
