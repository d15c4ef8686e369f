import { useRef, useState } from 'react';
import type { PointerEvent, RefObject } from 'react';
import type { Box } from '../lib/selection';

/**
 * Drag-box selection: a press on the listing's background draws a box (in the
 * scrolled content's coordinates) and reports what it covers as it grows.
 */
export function useBoxSelect(container: RefObject<HTMLElement | null>, onBox: (box: Box, additive: boolean) => void, onBackgroundClick: () => void) {
  const start = useRef<{ x: number; y: number; additive: boolean; moved: boolean } | null>(null);
  const [box, setBox] = useState<Box | null>(null);

  const point = (event: PointerEvent) => {
    const element = container.current!;
    const rect = element.getBoundingClientRect();
    return { x: event.clientX - rect.left + element.scrollLeft, y: event.clientY - rect.top + element.scrollTop };
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0 || event.pointerType === 'touch') return;
    if ((event.target as HTMLElement).closest('[data-entry-id]')) return;
    const p = point(event);
    start.current = { ...p, additive: event.ctrlKey || event.metaKey || event.shiftKey, moved: false };
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
  };

  const onPointerMove = (event: PointerEvent) => {
    const from = start.current;
    if (!from) return;
    const p = point(event);
    if (!from.moved && Math.abs(p.x - from.x) + Math.abs(p.y - from.y) < 4) return;
    from.moved = true;
    const next = { left: Math.min(from.x, p.x), top: Math.min(from.y, p.y), right: Math.max(from.x, p.x), bottom: Math.max(from.y, p.y) };
    setBox(next);
    onBox(next, from.additive);
  };

  const onPointerUp = () => {
    const from = start.current;
    start.current = null;
    setBox(null);
    if (from && !from.moved && !from.additive) onBackgroundClick();
  };

  return { box, boxProps: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp } };
}
