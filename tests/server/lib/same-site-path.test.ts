import { describe, expect, it } from 'vitest';
import { sameSitePath } from '../../../common/same-site-path.js';

const BASE = 'https://drive.example/drive/folders/x';

/** The host a browser would go to, or null where it cannot parse the address at all. */
const hostOf = (input: string) => (URL.canParse(input, BASE) ? new URL(input, BASE).host : null);

/** Every string of up to four of these characters, then a host-looking tail: what a prober would try. */
function probes(): string[] {
  const parts = ['/', '\\', '\t', '\n', '\r', ' ', '\u0000', '\u001f', 'a', '.'];
  let level = [''];
  const all: string[] = [];
  for (let n = 0; n < 4; n += 1) {
    level = level.flatMap((head) => parts.map((p) => head + p));
    all.push(...level);
  }
  return all.map((head) => `${head}evil.example/x`);
}

describe('a same-site path, as a browser reads it (issue 30 finding 7)', () => {
  it('refuses what the WHATWG URL parser sends to another host, and goes where the parser goes', () => {
    const inputs = probes();
    let accepted = 0;
    for (const input of inputs) {
      const path = sameSitePath(input);
      if (hostOf(input) !== 'drive.example') expect(path, JSON.stringify(input)).toBeNull();
      if (path === null) continue;
      accepted += 1;
      expect(new URL(path, BASE).href, JSON.stringify(input)).toBe(new URL(input, BASE).href);
      expect(path.startsWith('/')).toBe(true);
    }
    // The grid holds plenty of both kinds, so neither assertion above is vacuous.
    expect(accepted).toBeGreaterThan(100);
    expect(inputs.filter((i) => hostOf(i) === 'evil.example').length).toBeGreaterThan(100);
  });

  it.each([
    ['/pages/about', '/pages/about'],
    ['  /pages/about\n', '/pages/about'],
    ['/pa\tges/ab\r\nout?x=1#y', '/pages/about?x=1#y'],
    ['/\t/evil.example', null],
    ['/\n/evil.example', null],
    ['\u0001//evil.example', null],
    ['/\\evil.example', null],
    ['\\/evil.example', null],
    ['https://evil.example', null],
    ['pages/about', null],
    ['', null],
  ])('reads %j as %j', (input, expected) => {
    expect(sameSitePath(input)).toBe(expected);
  });
});
