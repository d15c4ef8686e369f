import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';

describe('config', () => {
  it('defaults to the embedded setup: port 8080, SQLite and storage under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.resolve('data', 'drive.sqlite') });
    expect(config.storageDir).toBe(path.resolve('data', 'storage'));
    expect(config.appUrl).toBe('http://localhost:8080');
  });

  it('switches to PostgreSQL with DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drive' });
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://u@db:5432/drive' });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
  });

  it('names the variable and what was expected when a value is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', APP_URL: 'not a url' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT="eighty"');
      expect(message).toContain('DATABASE_URL="mysql://x": a postgres://… URL or sqlite:<file>');
      expect(message).toContain('APP_URL="not a url"');
    }
  });

  it('refuses a short ADMIN_PASSWORD', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD.*at least 8 characters/);
  });

  it('stays embedded without REDIS_URL, and reads the scale-out variables', () => {
    expect(loadConfig({})).toMatchObject({ redis: null, workers: 1 });
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/2' }).redis).toEqual({ url: 'redis://cache:6379/2', prefix: 'drive:' });
    expect(() => loadConfig({ REDIS_URL: 'http://cache' })).toThrow(/REDIS_URL="http:\/\/cache": a redis:\/\/ or rediss:\/\/ URL/);
  });

  it('refuses WORKERS above 1 without Redis or on SQLite, saying why', () => {
    expect(() => loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://u@db/drive' })).toThrow(/WORKERS=4: several processes need REDIS_URL/);
    expect(() => loadConfig({ WORKERS: '2', REDIS_URL: 'redis://cache' })).toThrow(/WORKERS=2: several processes need PostgreSQL/);
    expect(loadConfig({ WORKERS: '4', REDIS_URL: 'redis://cache', DATABASE_URL: 'postgres://u@db/drive' }).workers).toBe(4);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(ConfigError);
  });
});
