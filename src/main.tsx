import { StrictMode, startTransition, useLayoutEffect, type ReactNode } from 'react';
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

/** Runs `onCommit` once its children are in the page. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(onCommit, [onCommit]);
  return children;
}

const liftInert = () => root.removeAttribute('inert');

/** Renders from nothing, replacing what #root holds (the static shell, or the server's preview of the screen). */
const render = () => {
  const reactRoot = createRoot(root);
  if (!root.hasAttribute('inert')) return reactRoot.render(app());
  // The preview stays painted while React builds the screen in slices (a transition yields to the browser every
  // few ms: the drive's first render was one task of ~300 ms on a slowed phone CPU), and is inert (no click on it is
  // lost on a button without its handler) until the screen replaces it in the commit.
  startTransition(() => reactRoot.render(<Committed onCommit={liftInert}>{app()}</Committed>));
};

if (isServerRendered(root)) {
  // The server wrote this screen (src/entry-server.tsx): React adopts its markup once the screen's code is here.
  takeServerQueries(queryClient);
  // In a transition, hydration is time-sliced: React yields to the browser every few ms rather than adopting the
  // whole page in one long task (Lighthouse's blocking time; a tap waits for it), and a tap on a part not yet
  // hydrated makes React hydrate that part first.
  loadInitialRoutes(routes, window.location).then(() => startTransition(() => void hydrateRoot(root, app())), render);
} else if (isServerPreview(root)) {
  // The server painted the screen's frame: the first render replaces it with the screen itself, not a
  // spinner in between (the router would show one while the screen's code loads), from the same data.
  takeServerQueries(queryClient);
  loadInitialRoutes(routes, window.location).then(render, render);
} else {
  render();
}

registerServiceWorker();
