import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { APPEARANCE_EDITOR_SOURCE, APPEARANCE_PREVIEW_SOURCE, announcePreviewReady } from '../../../src/features/appearance/bridge';
import { usePreview } from '../../../src/features/admin/appearance/use-preview';

// The appearance editor posts each change once to its preview frame. A change made while the framed page was still
// the server's markup, or its app was starting, reached no listener: the framed app says when it listens, and the
// editor sends its drafts again.

const ours = window.location.origin;

describe('the framed app', () => {
  it('tells the editor framing it that it listens, on our own origin only', () => {
    const parent = { postMessage: vi.fn() };
    announcePreviewReady({ parent: parent as unknown as Window, location: window.location });
    expect(parent.postMessage).toHaveBeenCalledWith({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' }, ours);
  });

  it('says nothing when it is not framed', () => {
    const postMessage = vi.spyOn(window, 'postMessage');
    announcePreviewReady(window);
    expect(postMessage).not.toHaveBeenCalled();
    postMessage.mockRestore();
  });
});

function Editor({ onReady }: { onReady: () => void }) {
  const { frame } = usePreview(onReady);
  return <iframe ref={frame} title="Preview" />;
}

describe("the editor's preview", () => {
  const setup = () => {
    const onReady = vi.fn();
    const view = render(<Editor onReady={onReady} />);
    const frame = view.container.querySelector('iframe')!.contentWindow!;
    const deliver = (data: unknown, origin = ours, source: Window | null = frame) =>
      act(() => {
        window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
      });
    return { onReady, frame, deliver };
  };

  it('sends its drafts again each time its frame says it listens', () => {
    const { onReady, frame, deliver } = setup();
    deliver({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' });
    expect(onReady).toHaveBeenCalledTimes(1);
    // It is handed the way to the frame: what it sends goes there, marked as the editor's, to our own origin only.
    const postToFrame = vi.spyOn(frame, 'postMessage');
    const send = onReady.mock.calls[0]![0] as (message: { type: 'setActiveTheme'; themeId: number }) => void;
    send({ type: 'setActiveTheme', themeId: 2 });
    expect(postToFrame).toHaveBeenCalledWith({ type: 'setActiveTheme', themeId: 2, source: APPEARANCE_EDITOR_SOURCE }, ours);
    // A reload of the frame, or the fresh frame of a Cancel, says it again.
    deliver({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' });
    expect(onReady).toHaveBeenCalledTimes(2);
  });

  it('ignores a "ready" from another origin, another window, or without the marker', () => {
    const { onReady, deliver } = setup();
    deliver({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' }, 'https://evil.example.com');
    deliver({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' }, ours, window);
    deliver({ type: 'ready' });
    deliver({ source: APPEARANCE_EDITOR_SOURCE, type: 'ready' });
    expect(onReady).not.toHaveBeenCalled();
  });
});
