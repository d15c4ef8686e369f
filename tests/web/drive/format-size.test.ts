import { describe, expect, it } from 'vitest';
import { formatBytes, SIZE_UNITS, storagePercentage } from '../../../src/i18n/format-size';

describe('formatBytes (spec §9: B..YB in steps of 1024)', () => {
  it('names every unit from B to YB at its power of 1024', () => {
    expect(SIZE_UNITS).toEqual(['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']);
    SIZE_UNITS.forEach((unit, power) => expect(formatBytes(1024 ** power)).toBe(`1 ${unit}`));
  });

  it('steps at 1024, not 1000', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1000)).toBe('1000 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3 + 0.25 * 1024 ** 3)).toBe('5.3 GB');
  });

  it('stays in YB beyond it and treats nonsense as nothing', () => {
    expect(formatBytes(2048 * 1024 ** 8)).toBe('2048 YB');
    expect(formatBytes(-5)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });
});

describe('storagePercentage', () => {
  it('is 0 when available is null (unlimited)', () => {
    expect(storagePercentage(5 * 1024 ** 3, null)).toBe(0);
  });

  it('is the whole percent used, capped at 100', () => {
    expect(storagePercentage(0, 1024)).toBe(0);
    expect(storagePercentage(512, 1024)).toBe(50);
    expect(storagePercentage(1, 3)).toBe(33);
    expect(storagePercentage(4096, 1024)).toBe(100);
    expect(storagePercentage(10, 0)).toBe(0);
  });
});
