// The page's first script (index.html). On a page the server wrote (a public screen to hydrate, or
// the drive's preview) the app's script starts after the first paint: that paint needs only the
// HTML and the CSS, and script fetched beside them would share the connection with them (Lighthouse
// counts every script that finished before the paint as part of it: ~290 KB on slow 4G, FCP 3.8 s).
// Its only import is the stylesheet (which Vite then links in the page's head, where the first paint needs it);
// nothing else, so it is one small file before the app's own chunks.
import './index.css';

/** The server's screen preloads (page-render.ts): inert in a template until the app starts. */
const SCREEN_PRELOADS_ID = 'screen-preloads';
/**
 * Preload links put in per task. Each starts a request, which costs the main thread ~1-2 ms (x4 on the slowed
 * phone CPU Lighthouse simulates): the ~20 of a screen in one go were one task of ~45 ms, ~180 ms there.
 */
const PRELOADS_PER_TASK = 5;

function start(): void {
  const preloads = document.getElementById(SCREEN_PRELOADS_ID);
  const links = preloads instanceof HTMLTemplateElement ? [...preloads.content.children] : [];
  preloads?.remove();
  const next = () => {
    document.head.append(...links.splice(0, PRELOADS_PER_TASK));
    if (links.length) setTimeout(next, 0);
    else void import('./main');
  };
  next();
}

const root = document.getElementById('root');
const serverPainted = !!root && (root.hasAttribute('data-server-rendered') || root.hasAttribute('data-server-preview'));
// After the next frame is painted (a requestAnimationFrame callback runs just before it). A hidden tab paints
// nothing and runs no frame callbacks: the app starts at once there.
if (serverPainted && document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
