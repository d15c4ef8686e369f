import { useCallback, useEffect, useRef } from 'react';
import { APPEARANCE_EDITOR_SOURCE, isPreviewReady, type BridgeMessage } from '../../appearance/bridge';

/**
 * The editor's side of the preview bridge (spec §2): every message carries the
 * editor's marker and goes only to our own origin, which is where the
 * previewed app checks it came from. `onReady` runs each time the framed app
 * says it listens (its first load, a reload, a Cancel's fresh frame): what was
 * posted before it listened was lost, so the editor sends its drafts again.
 */
export function usePreview(onReady: (post: (message: BridgeMessage) => void) => void) {
  const frame = useRef<HTMLIFrameElement>(null);
  const post = useCallback((message: BridgeMessage) => {
    frame.current?.contentWindow?.postMessage({ ...message, source: APPEARANCE_EDITOR_SOURCE }, window.location.origin);
  }, []);
  const ready = useRef(onReady);
  useEffect(() => {
    ready.current = onReady;
  });
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isPreviewReady(event, frame.current?.contentWindow, window.location.origin)) ready.current(post);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [post]);
  return { frame, post };
}
