import { describe, expect, it } from 'vitest';
import {
  checkRestrictions,
  chooseMethod,
  concurrencyLimit,
  readUploadSettings,
  serverErrorMessage,
  TOO_LARGE,
  TYPE_NOT_ALLOWED,
} from '../../../src/offline/queues/uploads/rules';
import type { UploadSettings } from '../../../src/offline/queues/uploads/types';

const MB = 1024 * 1024;
const settings = (overrides: Partial<UploadSettings> = {}): UploadSettings => ({
  maxSize: null,
  chunkSize: 5 * MB,
  allowedExtensions: [],
  blockedExtensions: [],
  disableTus: false,
  directS3: false,
  ...overrides,
});
const size = (bytes: number) => `${bytes / MB} MB`;

describe('upload rules', () => {
  it('uses tus from 4 MB unless disabled, a plain post below', () => {
    expect(chooseMethod(4 * MB - 1, settings())).toBe('plain');
    expect(chooseMethod(4 * MB, settings())).toBe('tus');
    expect(chooseMethod(50 * MB, settings({ disableTus: true }))).toBe('plain');
  });

  it('runs 3 at a time, 1 while a queued item has a relative path or uses tus', () => {
    const plain = { status: 'pending' as const, relativePath: null, method: 'plain' as const };
    expect(concurrencyLimit([plain, plain])).toBe(3);
    expect(concurrencyLimit([plain, { ...plain, relativePath: 'a/b.txt' }])).toBe(1);
    expect(concurrencyLimit([plain, { ...plain, method: 'tus' }])).toBe(1);
    // Finished items no longer slow the queue down.
    expect(concurrencyLimit([plain, { ...plain, method: 'tus', status: 'completed' }])).toBe(3);
  });

  it('checks the maximum size with the spec message', () => {
    expect(checkRestrictions({ name: 'a.iso', size: 11 * MB, mime: 'x/y' }, settings({ maxSize: 10 * MB }), size)).toEqual({
      message: TOO_LARGE,
      values: { file: 'a.iso', size: '10 MB' },
    });
    expect(checkRestrictions({ name: 'a.iso', size: 10 * MB, mime: 'x/y' }, settings({ maxSize: 10 * MB }), size)).toBeNull();
  });

  it('checks allowed and blocked types by extension or MIME pattern', () => {
    const photo = { name: 'Photo.JPG', size: 1, mime: 'image/jpeg' };
    const exe = { name: 'setup.exe', size: 1, mime: 'application/x-msdownload' };
    expect(checkRestrictions(photo, settings({ allowedExtensions: ['image/*'] }), size)).toBeNull();
    expect(checkRestrictions(exe, settings({ allowedExtensions: ['image/*', 'pdf'] }), size)).toEqual({ message: TYPE_NOT_ALLOWED });
    expect(checkRestrictions(photo, settings({ allowedExtensions: ['.jpg'] }), size)).toBeNull();
    expect(checkRestrictions(exe, settings({ blockedExtensions: ['exe'] }), size)).toEqual({ message: TYPE_NOT_ALLOWED });
    expect(checkRestrictions(photo, settings({ blockedExtensions: ['image/jpeg'] }), size)).toEqual({ message: TYPE_NOT_ALLOWED });
  });

  it('accepts only .sql and .bak in the SQL view', () => {
    expect(checkRestrictions({ name: 'dump.sql', size: 1, mime: '' }, settings(), size, { sqlOnly: true })).toBeNull();
    expect(checkRestrictions({ name: 'db.BAK', size: 1, mime: '' }, settings(), size, { sqlOnly: true })).toBeNull();
    expect(checkRestrictions({ name: 'a.txt', size: 1, mime: '' }, settings(), size, { sqlOnly: true })).toEqual({ message: TYPE_NOT_ALLOWED });
  });

  it('reads the bootstrap settings defensively', () => {
    expect(readUploadSettings({ max_size: 100, chunk_size: 2 * MB, allowed_extensions: ['pdf', 3], disable_tus: true })).toEqual({
      maxSize: 100,
      chunkSize: 2 * MB,
      allowedExtensions: ['pdf'],
      blockedExtensions: [],
      disableTus: true,
      directS3: false,
    });
    expect(readUploadSettings(undefined).chunkSize).toBe(5 * MB);
  });

  it("prefers the server's file error, then its message", () => {
    expect(serverErrorMessage({ message: 'The given data was invalid.', errors: { file: ['This file type is not allowed'] } })).toBe(TYPE_NOT_ALLOWED);
    expect(serverErrorMessage({ message: 'Over quota' })).toBe('Over quota');
    expect(serverErrorMessage('nope')).toBeNull();
  });
});
