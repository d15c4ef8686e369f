import { describe, expect, it } from 'vitest';
import { httpDate } from '../../../server/modules/webdav/props.js';

describe('httpDate', () => {
  it('writes what Date#toUTCString writes, for stored timestamps and anything else', () => {
    const samples = ['2026-11-27T17:04:32.806Z', '2000-02-29T00:00:00.000Z', '1999-12-31T23:59:59.999Z', '0999-01-01T12:00:00.000Z', '2026-11-27 17:04:32'];
    for (let i = 0; i < 500; i += 1) samples.push(new Date(Date.UTC(1970, 0, 1) + i * 7_919_999_993).toISOString());
    for (const iso of samples) expect(httpDate(iso)).toBe(new Date(iso).toUTCString());
  });
});
