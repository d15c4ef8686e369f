import type { HttpDeps } from '../http';
import { postJson } from '../http';
import { conflictCopyName } from './rules';
import type { SaveItem } from './types';

// One save attempt: POST file-entries/save with the base version; a 409
// (the server's version moved on) saves the content as a copy beside the
// original instead — both sides are kept, nothing is overwritten.

export type SaveResult = { kind: 'saved'; version: string } | { kind: 'conflict'; copyName: string };

/** The request never got an answer: wait for the network, do not fail. */
export class SaveNetworkError extends Error {
  constructor() {
    super('network');
    this.name = 'SaveNetworkError';
  }
}

/** The server refused the save for good (gone, no longer allowed, damaged): the draft stays on the device. */
export class SaveRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SaveRefused';
  }
}

/** A request that never got an answer waits for the network. */
async function answered<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch {
    throw new SaveNetworkError();
  }
}

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

export function sendSave(
  deps: HttpDeps,
  item: SaveItem,
  /** The newest content queued for the document: what a conflict copy keeps. */
  newest: () => Promise<SaveItem>,
  now: () => Date = () => new Date(),
): { done: Promise<SaveResult>; abort: () => void } {
  const controller = new AbortController();
  const done = (async (): Promise<SaveResult> => {
    const workspaceId = item.workspaceId;
    const response = await answered(
      postJson(
        deps,
        'file-entries/save',
        { id: item.entryId, version: item.baseVersion, content: item.content },
        { workspaceId, signal: controller.signal, traceId: item.id },
      ),
    );
    if (response.ok) {
      const body = await response.json();
      return { kind: 'saved', version: body.version };
    }
    if (response.status >= 500) throw new SaveNetworkError();
    if (response.status !== 409 && response.status !== 412) throw new SaveRefused(response.status, await messageOf(response));
    const latest = await newest();
    const copyName = conflictCopyName(item.name, now());
    const copy = await answered(
      postJson(
        deps,
        'file-entries/save-copy',
        { id: item.entryId, name: copyName, content: latest.content },
        { workspaceId, signal: controller.signal, traceId: item.id },
      ),
    );
    if (copy.status >= 500) throw new SaveNetworkError();
    if (!copy.ok) throw new SaveRefused(copy.status, await messageOf(copy));
    return { kind: 'conflict', copyName };
  })();
  return { done, abort: () => controller.abort() };
}
