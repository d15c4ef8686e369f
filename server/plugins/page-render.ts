import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRenderInput, RenderedPage } from '../../common/page-render.js';
import { escapeHtml } from '../modules/custom-pages/seo.js';

/**
 * The markup of the public screens written by the server (issue 38.1): the
 * first paint of /login or /pricing is the page, not the static shell's
 * spinner, and React hydrates it. The renderer is the app's own code, built
 * by `vite build --ssr` (src/entry-server.tsx → dist/ssr/entry-server.js);
 * common/page-render.ts is the contract (the server does not compile the app).
 */
export type { RenderedPage };
export type RenderInput = PageRenderInput;

export type PageRenderer = (input: RenderInput) => Promise<RenderedPage | null>;

/** The built renderer, or null when the app was built without it (the pages are then the static shell). */
export async function loadPageRenderer(entry: string): Promise<PageRenderer | null> {
  if (!fs.existsSync(entry)) return null;
  const module = (await import(pathToFileURL(entry).href)) as { renderPage?: PageRenderer };
  return typeof module.renderPage === 'function' ? module.renderPage : null;
}

/** Vite's build manifest (dist/web/.vite/manifest.json): what each source module is built into. */
type Manifest = Record<string, { file: string; imports?: string[] }>;

/**
 * The chunks of a rendered screen's modules, with the chunks they import, as the URLs the page
 * preloads. Without them the browser learns of the screen's code only when the entry runs, one
 * round trip later, and the page stays unhydrated (its clicks lost) meanwhile. Empty without a manifest.
 */
export function chunkPreloader(webDistDir: string): (modules: string[]) => string[] {
  const file = path.join(webDistDir, '.vite', 'manifest.json');
  const manifest: Manifest = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : {};
  return (modules) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(`/${chunk.file}`)) return;
      files.add(`/${chunk.file}`);
      chunk.imports?.forEach(visit);
    };
    modules.forEach(visit);
    return [...files];
  };
}

/** The id the app reads the rendered screens' queries from (src/app/hydrate.ts). */
const QUERIES_ID = 'server-queries';
/** The id of the template holding the screen's preloads (src/boot.ts). */
const PRELOADS_ID = 'screen-preloads';
/** Ends the static shell inside #root (index.html): what the server's markup replaces. */
const ROOT = /<div id="root">[\s\S]*?<!--\/shell-->\s*<\/div>/;

/**
 * index.html with the rendered screen in #root (marked for hydration, or as a preview), its queries as a JSON data
 * block (not script to the CSP), the language and the active theme's colours on <html> (the
 * appearance the first paint needs before the app's script applies it) and the site's title.
 * Spliced with function replacers: a `$` in admin text must not be read as a replacement pattern.
 */
export function withRenderedPage(template: string, page: RenderedPage, preloads: string[] = []): string {
  if (!ROOT.test(template)) return template;
  const queries = `<script type="application/json" id="${QUERIES_ID}">${page.queries.replace(/</g, '\\u003c')}</script>`;
  const attributes = [
    `lang="${escapeHtml(page.lang)}"`,
    page.htmlClass && `class="${escapeHtml(page.htmlClass)}"`,
    page.htmlStyle && `style="${escapeHtml(page.htmlStyle)}"`,
  ].filter(Boolean);
  let html = template
    // A preview is inert: a click on a control without its handler yet would be lost (the app lifts it as it replaces the preview).
    .replace(ROOT, () => `<div id="root" ${page.preview ? 'data-server-preview inert' : 'data-server-rendered'}>${page.html}</div>${queries}`)
    .replace(/<html[^>]*>/i, () => `<html ${attributes.join(' ')}>`);
  if (page.title) html = html.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${escapeHtml(page.title)}</title>`);
  // `crossorigin` as Vite's own preloads have it: module scripts are fetched in CORS mode, and only a preload made the same way is reused.
  const links = preloads.filter((href) => !html.includes(`"${href}"`)).map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`);
  // In a template, inert: src/boot.ts moves them into the head when the app starts, after the first paint, which needs
  // only the HTML and CSS (fetched beside them, the screen's script delayed that paint).
  if (links.length) html = html.replace(/<\/body>/i, () => `<template id="${PRELOADS_ID}">${links.join('')}</template></body>`);
  return html;
}
