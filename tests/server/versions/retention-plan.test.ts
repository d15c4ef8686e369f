import { describe, expect, it } from 'vitest';
import { DAY, expiredVersions } from '../../../server/modules/drive/retention.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

/** The thinning steps of drive/retention.ts, as a plan over timestamps. */
describe('version retention plan', () => {
  it('keeps the newest version of each slot of its age’s step', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    // Saves 1 s apart over the last 10 s: one per 2 s stays (the one 10 s old is in a 10 s slot).
    const recent = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, createdAt: iso(now - (i + 1) * 1000) }));
    const expired = new Set(expiredVersions(recent, now, 365));
    expect(recent.filter((v) => !expired.has(v.id)).map((v) => v.id)).toEqual([1, 3, 5, 7, 9, 10]);
    expect(expiredVersions([{ id: 1, createdAt: iso(now) }], now, 365)).toEqual([]);
  });

  it('drops what is older than the longest age, and nothing when the cap is 0', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    const versions = [
      { id: 1, createdAt: iso(now - 10 * DAY) },
      { id: 2, createdAt: iso(now - 40 * DAY) },
    ];
    expect(expiredVersions(versions, now, 30)).toEqual([2]);
    expect(expiredVersions(versions, now, 0)).toEqual([]);
  });

  it('thins a simulated year of saves every 10 minutes, run hourly, to the stated shape', () => {
    const start = Date.parse('2025-06-01T00:00:00Z');
    const end = start + 365 * DAY;
    let versions: { id: number; createdAt: string }[] = [];
    let id = 0;
    for (let at = start; at < end; at += 10 * MINUTE) {
      versions.push({ id: ++id, createdAt: iso(at) });
      if ((at - start) % HOUR === 0) {
        const expired = new Set(expiredVersions(versions, at, 0));
        versions = versions.filter((v) => !expired.has(v.id));
      }
    }
    const now = end;
    const expired = new Set(expiredVersions(versions, now, 0));
    versions = versions.filter((v) => !expired.has(v.id));
    const ages = versions.map((v) => now - Date.parse(v.createdAt));
    const within = (from: number, to: number) => ages.filter((a) => a >= from && a < to).length;
    // Saves every 10 minutes: all of the last hour's (6), about one an hour for a day, one a day for a month, one a week after.
    expect(within(0, HOUR)).toBe(5);
    expect(within(HOUR, DAY)).toBe(24);
    expect(within(DAY, 30 * DAY)).toBe(29);
    expect(within(30 * DAY, 366 * DAY)).toBeGreaterThanOrEqual(47);
    expect(within(30 * DAY, 366 * DAY)).toBeLessThanOrEqual(49);
    // Of 52,560 saves about 110 remain, and running the plan again changes nothing.
    expect(versions.length).toBeLessThan(115);
    expect(expiredVersions(versions, now, 0)).toEqual([]);
    // Each day of the last month keeps its last save.
    for (let day = 1; day < 30; day += 1) {
      const last = versions.find((v) => Math.floor(Date.parse(v.createdAt) / DAY) === Math.floor((now - day * DAY) / DAY) - 0);
      expect(last, `day -${day}`).toBeDefined();
    }
    // The oldest weeks are still represented.
    expect(now - Math.min(...versions.map((v) => Date.parse(v.createdAt)))).toBeGreaterThan(358 * DAY);
  });
});
