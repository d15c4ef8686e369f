import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const SERVER = 'http://localhost:8080';

// Defaults for the installable app; the server's branding (site name, logos)
// takes over inside the page once bootstrap data arrives.
const APP_NAME = 'Drive';
const THEME_COLOR = '#3b82f6';
const BACKGROUND_COLOR = '#ffffff';

// `vite build --ssr src/entry-server.tsx`: the server's renderer of the public screens (issue 38.1),
// the same components for Node, loaded by the server from dist/ssr (server/plugins/page-render.ts).
const ssrBuild = {
  plugins: [react()],
  build: { outDir: 'dist/ssr', emptyOutDir: true, copyPublicDir: false },
};

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? ssrBuild
    : {
        plugins: [
          react(),
          tailwindcss(),
          VitePWA({
            strategies: 'injectManifest',
            srcDir: 'sw',
            filename: 'sw.ts',
            // The page registers the worker itself through workbox-window.
            injectRegister: false,
            registerType: 'prompt',
            injectManifest: {
              globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
            },
            manifest: {
              id: '/',
              name: APP_NAME,
              short_name: APP_NAME,
              description: 'Store, organise and share your files, online and offline.',
              start_url: '/',
              scope: '/',
              display: 'standalone',
              theme_color: THEME_COLOR,
              background_color: BACKGROUND_COLOR,
              icons: [
                { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
                { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
                { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
                { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
              ],
            },
            devOptions: { enabled: false },
          }),
        ],
        build: {
          outDir: 'dist/web',
          // Which chunks a source module is built into: the server preloads a rendered screen's (server/plugins/page-render.ts).
          manifest: true,
          emptyOutDir: true,
          rolldownOptions: {
            output: {
              // Libraries change less often than the app: separate chunks stay cached
              // across releases, and none of them grows past the size warning.
              codeSplitting: {
                groups: [
                  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
                  { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
                ],
              },
            },
          },
        },
        server: {
          proxy: {
            '/api': SERVER,
            '/auth': SERVER,
            '/secure': SERVER,
          },
        },
      },
);
