import fs from 'node:fs';
import path from 'node:path';

/**
 * Which screen module each page path opens with (src/app/routes.tsx loads them lazily). Only
 * the pages people land on matter: a path missing here loses its head start, nothing else.
 */
const ROUTE_MODULES: { match: (pathname: string) => boolean; modules: string[] }[] = [
  { match: (p) => p === '/login' || p === '/workspace/join/login', modules: ['src/features/auth/LoginPage.tsx'] },
  { match: (p) => p === '/register' || p === '/workspace/join/register', modules: ['src/features/auth/RegisterPage.tsx'] },
  { match: (p) => p === '/forgot-password', modules: ['src/features/auth/ForgotPasswordPage.tsx'] },
  { match: (p) => p === '/drive' || p.startsWith('/drive/'), modules: ['src/app/layouts/AppLayout.tsx', 'src/features/drive/DriveRoutes.tsx'] },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * Adds `<link rel="modulepreload">` for the landing route's chunks, so the browser fetches them
 * alongside the entry instead of after it has run and the router asked (one round trip fewer
 * before the first real screen). Reads Vite's build manifest once; without one, pages pass
 * through unchanged.
 */
export function routePreloader(webDistDir: string): (pathname: string, html: string) => string {
  const manifestFile = path.join(webDistDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return (_pathname, html) => html;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;

  const filesOf = (modules: string[]): string[] => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.imports?.forEach(visit);
    };
    modules.forEach(visit);
    return [...files].filter((file) => file.endsWith('.js'));
  };
  const links = ROUTE_MODULES.map(({ match, modules }) => ({ match, files: filesOf(modules) }));

  return (pathname, html) => {
    const route = links.find(({ match }) => match(pathname));
    if (!route || !html.includes('</head>')) return html;
    // The entry's own preloads are in the page already.
    const tags = route.files
      .filter((file) => !html.includes(`"/${file}"`))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
    return html.replace('</head>', `${tags}</head>`);
  };
}
