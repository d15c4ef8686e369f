import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// src/boot.ts moves the server's screen preloads into the head a few per task (each link starts a request, which
// costs the main thread ~1-2 ms: the ~20 of a screen were one task of ~45 ms, x4 on a slowed phone CPU), then
// starts the app once they are all in.

const started = vi.hoisted(() => ({ app: false }));
vi.mock('../../../src/main', () => {
  started.app = true;
  return {};
});

const preloads = (count: number) =>
  `<template id="screen-preloads">${Array.from({ length: count }, (_, i) => `<link rel="modulepreload" crossorigin href="/assets/chunk-${i}.js">`).join('')}</template>`;

beforeEach(() => {
  vi.useFakeTimers();
  // A page the browser renders itself (no server markup): boot starts at once, without waiting for a frame.
  document.body.innerHTML = `<div id="root"></div>${preloads(12)}`;
  document.head.innerHTML = '';
});

afterEach(() => {
  vi.useRealTimers();
});

describe('boot', () => {
  it('puts the preloads in a few per task, then starts the app', async () => {
    const heads: number[] = [];
    const count = () => document.head.querySelectorAll('link[rel="modulepreload"]').length;
    await import('../../../src/boot');
    heads.push(count());
    expect(document.getElementById('screen-preloads')).toBeNull();
    for (let task = 0; task < 3; task++) {
      await vi.advanceTimersToNextTimerAsync();
      heads.push(count());
    }
    expect(heads).toEqual([5, 10, 12, 12]);
    // The app's module is imported once the last batch is in.
    await vi.waitFor(() => expect(started.app).toBe(true));
    expect([...document.head.querySelectorAll('link')].map((link) => link.getAttribute('href'))).toEqual(
      Array.from({ length: 12 }, (_, i) => `/assets/chunk-${i}.js`),
    );
  });
});
