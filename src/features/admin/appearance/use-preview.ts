import { useCallback, useRef } from 'react';
import { APPEARANCE_EDITOR_SOURCE, type BridgeMessage } from '../../appearance/bridge';

/**
 * The editor's side of the preview bridge (spec §2): every message carries the
 * editor's marker and goes only to our own origin, which is where the
 * previewed app checks it came from.
 */
export function usePreview() {
  const frame = useRef<HTMLIFrameElement>(null);
  const post = useCallback((message: BridgeMessage) => {
    frame.current?.contentWindow?.postMessage({ ...message, source: APPEARANCE_EDITOR_SOURCE }, window.location.origin);
  }, []);
  return { frame, post };
}
