import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask, whenIdle } from '../../../src/app/tasks';

// Issue 38.1: the app's start is cut into tasks, so that each step gives the browser the main thread back.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('nextTask', () => {
  it('resumes in a later task: a task already queued runs first', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('queued task'), 0);
    queueMicrotask(() => order.push('microtask'));
    await nextTask();
    order.push('resumed');
    expect(order).toEqual(['microtask', 'queued task', 'resumed']);
  });

  it("uses the browser's scheduler.yield() where there is one", async () => {
    const yieldToBrowser = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yieldToBrowser });
    await nextTask();
    expect(yieldToBrowser).toHaveBeenCalledTimes(1);
  });
});

describe('whenIdle', () => {
  it('waits for an idle callback, with a deadline', async () => {
    const requestIdle = vi.fn((callback: () => void, _options?: { timeout: number }) => {
      setTimeout(callback, 5);
      return 1;
    });
    vi.stubGlobal('requestIdleCallback', requestIdle);
    let idle = false;
    const waiting = whenIdle(1500).then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    await waiting;
    expect(requestIdle).toHaveBeenCalledWith(expect.any(Function), { timeout: 1500 });
  });

  it('falls back to a timer without requestIdleCallback', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.useFakeTimers();
    let idle = false;
    const waiting = whenIdle().then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(0);
    await waiting;
    expect(idle).toBe(true);
  });
});
