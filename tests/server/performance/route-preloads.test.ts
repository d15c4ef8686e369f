import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { routePreloader } from '../../../server/plugins/route-preloads.js';

const page = '<html><head><script type="module" src="/assets/index-a.js"></script></head><body></body></html>';
const dirs: string[] = [];

function distWith(manifest: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-preloads-'));
  dirs.push(dir);
  if (manifest) {
    fs.mkdirSync(path.join(dir, '.vite'));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('route preloads', () => {
  const manifest = {
    'index.html': { file: 'assets/index-a.js', imports: ['_react.js'] },
    '_react.js': { file: 'assets/react-b.js' },
    '_zod.js': { file: 'assets/zod-c.js', imports: ['_react.js'] },
    'src/features/auth/LoginPage.tsx': { file: 'assets/LoginPage-d.js', imports: ['index.html', '_zod.js', '_react.js'], css: ['assets/x.css'] },
  };

  it("names the landing route's chunk and its imports, once each, leaving out what the page already loads", () => {
    const html = routePreloader(distWith(manifest))('/login', page);
    const preloads = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloads.sort()).toEqual(['/assets/LoginPage-d.js', '/assets/react-b.js', '/assets/zod-c.js']);
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
    expect(html).not.toContain('href="/assets/index-a.js"');
  });

  it('leaves other pages, and every page of a build without a manifest, as they are', () => {
    expect(routePreloader(distWith(manifest))('/pricing', page)).toBe(page);
    expect(routePreloader(distWith(null))('/login', page)).toBe(page);
  });
});
