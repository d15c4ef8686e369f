import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

/** The smallest built page the server writes bootstrap data into: a head to close and a root. */
export const PAGE_HTML = '<!doctype html><html><head><title>Drive</title></head><body><div id="root"></div></body></html>';

/**
 * A fresh app for the calling describe block serving a built page (PAGE_HTML
 * in a temporary web folder, removed afterwards). Read `site.app` inside
 * tests: it exists from beforeAll on.
 */
export function appWithPage(): { readonly app: FastifyInstance; readonly test: TestApp } {
  let webDir: string | undefined;
  let test: TestApp | undefined;
  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-web-'));
    await fs.writeFile(path.join(webDir, 'index.html'), PAGE_HTML);
    test = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
  });
  afterAll(async () => {
    await test?.close();
    if (webDir) await fs.rm(webDir, { recursive: true, force: true });
  });
  const ready = () => {
    if (!test) throw new Error('appWithPage: read inside a test, after beforeAll');
    return test;
  };
  return {
    get app() {
      return ready().app;
    },
    get test() {
      return ready();
    },
  };
}

/** The bootstrap block written into a page, read back as the app reads it; null when there is none. */
export function bootstrapIn<T>(html: string): { data: T } | null {
  const match = /<script type="application\/json" id="bootstrap-data">([\s\S]*?)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as { data: T }) : null;
}
