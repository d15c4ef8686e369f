import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from './api/query-client';
import { isServerPreview, isServerRendered, loadInitialRoutes, takeServerQueries } from './app/hydrate';
import { Providers } from './app/Providers';
import { routes } from './app/routes';
import { setBootstrap, takeInlineBootstrap } from './features/bootstrap/store';
import { syncLanguage } from './i18n/i18n';
import { registerServiceWorker } from './offline/sw-registration';
import { startErrorReporting } from './observability/errors';
import './index.css';

const queryClient = createQueryClient();
startErrorReporting(queryClient);
const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

// The bootstrap data the server wrote into the page is in the cache before the first render: that render
// is the screen (or the server's markup, hydrated), not a spinner waiting for the device's copy to load.
const inlineBootstrap = takeInlineBootstrap();
if (inlineBootstrap) {
  setBootstrap(queryClient, inlineBootstrap);
  // Every line of that render in the page's language, translate() included (as the server's render had it).
  syncLanguage(inlineBootstrap.i18n.language, inlineBootstrap.i18n.lines);
}

const app = () => (
  <StrictMode>
    <Providers client={queryClient} inlineBootstrap={inlineBootstrap}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </Providers>
  </StrictMode>
);

/** Renders from nothing, replacing what #root holds (the static shell, or the server's preview of the screen). */
const render = () => {
  const reactRoot = createRoot(root);
  if (!root.hasAttribute('inert')) return reactRoot.render(app());
  // The preview is inert (no click on it is lost on a button without its handler) until the screen replaces it.
  flushSync(() => reactRoot.render(app()));
  root.removeAttribute('inert');
};

if (isServerRendered(root)) {
  // The server wrote this screen (src/entry-server.tsx): React adopts its markup once the screen's code is here.
  takeServerQueries(queryClient);
  loadInitialRoutes(routes, window.location).then(() => hydrateRoot(root, app()), render);
} else if (isServerPreview(root)) {
  // The server painted the screen's frame: the first render replaces it with the screen itself, not a
  // spinner in between (the router would show one while the screen's code loads), from the same data.
  takeServerQueries(queryClient);
  loadInitialRoutes(routes, window.location).then(render, render);
} else {
  render();
}

registerServiceWorker();
