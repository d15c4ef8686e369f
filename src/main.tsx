import { StrictMode, startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { DataRouter as Router } from 'react-router-dom';
import { createQueryClient } from './api/query-client';
import { isServerPreview, isServerRendered, loadInitialRoutes, takeServerQueries } from './app/hydrate';
import { Providers } from './app/Providers';
import { routes } from './app/routes';
import { nextTask, whenIdle } from './app/tasks';
import { setBootstrap, takeInlineBootstrap } from './features/bootstrap/store';
import { syncLanguage } from './i18n/i18n';
import { registerServiceWorker } from './offline/sw-registration';
import { startErrorReporting } from './observability/errors';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

/** Runs `onCommit` once its children are in the page. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(onCommit, [onCommit]);
  return children;
}

const liftInert = () => root.removeAttribute('inert');

/**
 * The steps of the start each in a task of its own (src/app/tasks.ts): this module's evaluation (react,
 * the router, i18next, the shell's code), the page's data and language, the screen's chunks (their
 * evaluation; on /pricing the first use of Intl, which loads ICU's data), then hydration, itself
 * time-sliced. Together they were two tasks of ~90 and ~130 ms on Lighthouse's slowed CPU.
 */
async function start(root: HTMLElement): Promise<void> {
  const serverRendered = isServerRendered(root);
  const serverPreview = isServerPreview(root);
  await nextTask();
  // The screen's chunks are preloaded (src/boot.ts): their evaluation is a task of its own when they are in.
  const screen = serverRendered || serverPreview ? loadInitialRoutes(routes, window.location) : null;

  const queryClient = createQueryClient();
  startErrorReporting(queryClient);
  // The bootstrap data the server wrote into the page is in the cache before the first render: that render
  // is the screen (or the server's markup, hydrated), not a spinner waiting for the device's copy to load.
  const inlineBootstrap = takeInlineBootstrap();
  if (inlineBootstrap) {
    setBootstrap(queryClient, inlineBootstrap);
    // Every line of that render in the page's language, translate() included (as the server's render had it).
    syncLanguage(inlineBootstrap.i18n.language, inlineBootstrap.i18n.lines);
  }
  // The queries the server rendered with, for the screen's first render to read what the server's read.
  if (screen) takeServerQueries(queryClient);
  const app = (router: Router) => (
    <StrictMode>
      <Providers client={queryClient} inlineBootstrap={inlineBootstrap}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>
  );

  /** Renders from nothing, replacing what #root holds (the static shell, or the server's preview of the screen). */
  const render = (router: Router) => {
    const reactRoot = createRoot(root);
    if (!root.hasAttribute('inert')) return reactRoot.render(app(router));
    // The preview stays painted while React builds the screen in slices (a transition yields to the browser every
    // few ms: the drive's first render was one task of ~300 ms on a slowed phone CPU), and is inert (no click on it is
    // lost on a button without its handler) until the screen replaces it in the commit.
    startTransition(() => reactRoot.render(<Committed onCommit={liftInert}>{app(router)}</Committed>));
  };

  const loaded = screen
    ? await screen.then(
        () => true,
        () => false,
      )
    : false;
  if (loaded) await nextTask();
  // Created once the screen's code is in (the router would load it itself and render its fallback meanwhile, not the
  // server's markup). Its start ranks every route of the app: ~20 ms on a slowed CPU, a task of its own.
  const router = createBrowserRouter(routes);
  if (loaded) await nextTask();
  if (serverRendered && loaded) {
    // The server wrote this screen (src/entry-server.tsx): React adopts its markup. In a transition, hydration is
    // time-sliced: React yields to the browser every few ms rather than adopting the whole page in one long task
    // (Lighthouse's blocking time; a tap waits for it), and a tap on a part not yet hydrated is hydrated first.
    startTransition(() => void hydrateRoot(root, app(router)));
  } else {
    // The drive's preview (the server painted the screen's frame): the first render replaces it with the screen
    // itself, not a spinner in between (the router would show one while the screen's code loads), from the same data.
    render(router);
  }

  // Nothing on the first screen needs the worker: its registration (workbox, the worker's script) waits.
  await whenIdle();
  registerServiceWorker();
}

void start(root);
