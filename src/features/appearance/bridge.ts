import type { Bootstrap, Settings, Theme } from '../../api/bootstrap-types';
import { applyTheme } from '../themes/theme-rule';

// Appearance-editor preview bridge (spec §2). The editor hosts the app in an
// iframe and posts messages; only messages carrying the editor's marker and
// coming from our own host name are obeyed, anything else is ignored.

export const APPEARANCE_EDITOR_SOURCE = 'be-appearance-editor';
/** The marker of the framed app's own message to the editor: it listens now. */
export const APPEARANCE_PREVIEW_SOURCE = 'be-appearance-preview';
export const CUSTOM_CODE_ID = 'be-custom-code';

export type BridgeMessage =
  | { type: 'navigate'; to: string }
  | { type: 'setValues'; values: { themes?: Theme[]; settings?: DeepPartial<Settings> } }
  | { type: 'setThemeColor'; name: string; value: string }
  | { type: 'setActiveTheme'; themeId: number }
  | { type: 'setCustomCode'; mode: 'html' | 'css'; value: string | null };

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const TYPES = new Set(['navigate', 'setValues', 'setThemeColor', 'setActiveTheme', 'setCustomCode']);

/** Returns the message when it is from the editor on our host, else null. */
export function acceptBridgeMessage(event: { data: unknown; origin: string }, pageHost: string): BridgeMessage | null {
  const data = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (record.source !== APPEARANCE_EDITOR_SOURCE) return null;
  if (typeof record.type !== 'string' || !TYPES.has(record.type)) return null;
  let senderHost: string;
  try {
    senderHost = new URL(event.origin).hostname;
  } catch {
    return null;
  }
  if (senderHost !== pageHost) return null;
  return data as BridgeMessage;
}

export interface BridgeDeps {
  navigate: (to: string) => void;
  getBootstrap: () => Bootstrap | undefined;
  setBootstrap: (data: Bootstrap) => void;
  doc?: Document;
}

export function handleBridgeMessage(message: BridgeMessage, deps: BridgeDeps): void {
  const doc = deps.doc ?? document;
  switch (message.type) {
    case 'navigate':
      deps.navigate(message.to);
      return;
    case 'setValues': {
      const current = deps.getBootstrap();
      if (!current) return;
      // Branding is stored as settings (branding.*) but the app reads it from its own key: follow both.
      const branding = message.values.settings?.branding;
      deps.setBootstrap({
        ...current,
        themes: message.values.themes ? { ...current.themes, all: message.values.themes } : current.themes,
        settings: message.values.settings ? deepMerge(current.settings, message.values.settings) : current.settings,
        branding: isPlainObject(branding) ? { ...current.branding, ...pickStrings(branding) } : current.branding,
      });
      return;
    }
    case 'setThemeColor':
      doc.documentElement.style.setProperty(message.name, message.value);
      return;
    case 'setActiveTheme': {
      const theme = deps.getBootstrap()?.themes.all.find((t) => t.id === message.themeId);
      if (theme) applyTheme(theme, doc.documentElement);
      return;
    }
    case 'setCustomCode':
      setCustomCode(doc, message.mode, message.value);
      return;
  }
}

/**
 * The admin's custom code under the fixed id: CSS as a style in <head>, HTML
 * as a container in <body>. Each replaces only its own kind, so editing the
 * CSS leaves the HTML in place. Not sanitised: it is the admin's own code.
 */
export function setCustomCode(doc: Document, mode: 'html' | 'css', value: string | null): void {
  const tag = mode === 'css' ? 'style' : 'div';
  doc.querySelector(`${tag}#${CUSTOM_CODE_ID}`)?.remove();
  if (!value) return;
  if (mode === 'css') {
    const style = doc.createElement('style');
    style.id = CUSTOM_CODE_ID;
    style.textContent = value;
    doc.head.appendChild(style);
  } else {
    const container = doc.createElement('div');
    container.id = CUSTOM_CODE_ID;
    container.innerHTML = value;
    doc.body.appendChild(container);
  }
}

function pickStrings(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge<T>(target: T, patch: DeepPartial<T>): T {
  if (!isPlainObject(target) || !isPlainObject(patch)) return target;
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const existing = result[key];
    result[key] = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : value;
  }
  return result as T;
}

/**
 * Tells the editor framing this page (on our own origin) that the app listens now. What the editor sent before
 * (while the page was the server's markup, or the app was starting) found no listener; the editor sends its drafts again.
 */
export function announcePreviewReady(win: Pick<Window, 'parent' | 'location'> = window): void {
  if (win.parent === win) return;
  win.parent.postMessage({ source: APPEARANCE_PREVIEW_SOURCE, type: 'ready' }, win.location.origin);
}

/** Whether a message is the framed app's "ready", from `frame` on our own origin. */
export function isPreviewReady(event: Pick<MessageEvent, 'data' | 'origin' | 'source'>, frame: Window | null | undefined, origin: string): boolean {
  const data = event.data as { source?: unknown; type?: unknown } | null;
  return !!frame && event.source === frame && event.origin === origin && data?.source === APPEARANCE_PREVIEW_SOURCE && data.type === 'ready';
}

let editorActive = false;

/** True once the editor has spoken to us, or when framed by a page on our host. */
export function isAppearanceEditorActive(): boolean {
  if (editorActive) return true;
  try {
    return window.self !== window.top && !!document.referrer && new URL(document.referrer).hostname === location.hostname;
  } catch {
    return false;
  }
}

export function markAppearanceEditorActive(): void {
  editorActive = true;
}
