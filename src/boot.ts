// The page's first script (index.html). On a page the server wrote (a public screen to hydrate, or
// the drive's preview) the app's script starts after the first paint: that paint needs only the
// HTML and the CSS, and script fetched beside them would share the connection with them (Lighthouse
// counts every script that finished before the paint as part of it: ~290 KB on slow 4G, FCP 3.8 s).
// Its only import is the stylesheet (which Vite then links in the page's head, where the first paint needs it);
// nothing else, so it is one small file before the app's own chunks.
import './index.css';

/** The server's screen preloads (page-render.ts): inert in a template until the app starts, then fetched at once. */
const SCREEN_PRELOADS_ID = 'screen-preloads';

function start(): void {
  const preloads = document.getElementById(SCREEN_PRELOADS_ID);
  if (preloads instanceof HTMLTemplateElement) {
    document.head.append(preloads.content);
    preloads.remove();
  }
  void import('./main');
}

const root = document.getElementById('root');
const serverPainted = !!root && (root.hasAttribute('data-server-rendered') || root.hasAttribute('data-server-preview'));
// After the next frame is painted (a requestAnimationFrame callback runs just before it). A hidden tab paints
// nothing and runs no frame callbacks: the app starts at once there.
if (serverPainted && document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
