/**
 * What the server's page renderer (src/entry-server.tsx, built by `vite build --ssr` into
 * dist/ssr/entry-server.js) takes and gives back, for server/plugins/page-render.ts that loads it
 * (issue 38.1). The two sides are built separately, so this is their one written contract.
 */
export interface PageRenderInput<Bootstrap = unknown, Get = (apiPath: string) => Promise<unknown>> {
  /** The request's path and query. */
  url: string;
  /** The caller's bootstrap data, as written into the page (`{ data }`). */
  bootstrap: Bootstrap;
  /** The request's Cookie header: a screen may show what a cookie decides (the cookie notice). */
  cookies: string;
  /** Whether the visitor's browser says it is a phone or tablet (User-Agent "Mobile"): a preview's layout follows it. */
  mobile?: boolean;
  /** Reads an API path as the caller, for the queries a screen renders with. */
  get: Get;
}

export interface RenderedPage {
  /** #root's content. */
  html: string;
  /** The queries the screens read, react-query's dehydrated state as JSON, for the browser's cache. */
  queries: string;
  /** Attributes of <html>: the language and the active theme's colours, so the first paint has them. */
  lang: string;
  htmlStyle: string;
  htmlClass: string;
  title: string;
  /** The source modules of the screen, whose built chunks the page preloads (dist/web/.vite/manifest.json). */
  modules: string[];
  /** A preview for the first paint, which the browser's first render replaces (not hydrated). */
  preview: boolean;
}
