import { useCallback, useEffect, useRef, useState } from 'react';
import Quill from 'quill';
import { activeWorkspaceId, workspaceParam } from '../../api/active-workspace';
import { isApiError } from '../../api/api-error';
import { getErrorMessage } from '../../api/errors';
import type { DocumentContent } from '../../offline/documents/types';
import type { SaveItem } from '../../offline/queues/saves/types';
import { readDocument, uploadImages } from './api';
import { cacheServerCopy, draftOf, localCopy, saveDraft } from './drafts';
import { deltaToSections, sectionsToDelta } from './lib/delta-sections';
import { AUTO_SAVE_MS, editorOptions, installPasteRules, registerEditorFormats } from './lib/quill-setup';
import { saveQueue } from './save-queue';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'conflict' | 'failed';

/** Every change reaches the draft within a second (spec'd), without writing on every keystroke. */
const DRAFT_DELAY_MS = 300;

export function statusOf(item: SaveItem, online: boolean): SaveStatus {
  if (item.status === 'completed') return item.outcome === 'conflict' ? 'conflict' : 'saved';
  if (item.status === 'failed' || item.status === 'aborted') return 'failed';
  if (item.status === 'pending' && (item.waitingForNetwork || !online)) return 'offline';
  return 'saving';
}

/**
 * The document screen's engine (spec §4): the editor is created, the
 * document loaded — the draft or the device's copy first, then the server's —
 * and saved every 50 s, on Ctrl+S and when the page is hidden or closed.
 * Saves go through the offline queue with the version they were edited from.
 */
export function useDocumentEditor(entryId: string | undefined, userId: string | null, versionId: number | null = null) {
  const hostRef = useRef<HTMLDivElement | null>(null);
  const quillRef = useRef<Quill | null>(null);
  const baseRef = useRef('');
  const nameRef = useRef<string | null>(null);
  /** Where inserted images are uploaded: beside the document. */
  const parentRef = useRef<string | null>(null);
  const dirtyRef = useRef(false);
  const draftTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Changes not yet in the draft; and when the draft was last written. */
  const draftPendingRef = useRef(false);
  const draftAtRef = useRef<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [status, setStatusState] = useState<SaveStatus>('idle');
  /** The server's permissions on the file; null until it has answered (offline, nothing is offered that needs it). */
  const [permissions, setPermissions] = useState<readonly string[] | null>(null);
  /** An earlier version shown read-only (`versionId`): which one, once the server has answered. */
  const [shownVersion, setShownVersion] = useState<{ id: number; created_at: string } | null>(null);
  /** Waiting for the save in flight to settle (a download): told whether it reached the server. */
  const settledRef = useRef<((saved: boolean) => void)[]>([]);
  // The status as of now, for a download asked for between renders.
  const statusRef = useRef<SaveStatus>('idle');
  const setStatus = useCallback((next: SaveStatus) => {
    statusRef.current = next;
    setStatusState(next);
  }, []);

  const currentContent = useCallback((): DocumentContent | null => (quillRef.current ? deltaToSections(quillRef.current.getContents()) : null), []);

  /**
   * Writes pending changes to the draft now; answers the draft's time (null: no draft). Only edits
   * make a draft: opening and closing a document leaves nothing to save.
   */
  const flushDraft = useCallback(async (): Promise<number | null> => {
    if (draftTimer.current) clearTimeout(draftTimer.current);
    draftTimer.current = null;
    if (!draftPendingRef.current) return draftAtRef.current;
    const content = currentContent();
    if (!content || !entryId || !userId) return null;
    draftPendingRef.current = false;
    draftAtRef.current = (await saveDraft(userId, entryId, content, baseRef.current)).updatedAt;
    return draftAtRef.current;
  }, [currentContent, entryId, userId]);

  /**
   * Queues the current content; `force` (Ctrl+S, the button) saves even without a change since the last save.
   * Answers whether a save was queued.
   */
  const saveNow = useCallback(
    async (force = false): Promise<boolean> => {
      // An action runs only when the editor and the entry both exist (spec §4 Document screen); an earlier version is never saved.
      if (!quillRef.current || !entryId || !userId || versionId) return false;
      if (force) dirtyRef.current = true;
      if (!dirtyRef.current) return false;
      dirtyRef.current = false;
      const content = currentContent()!;
      const draftUpdatedAt = (await flushDraft()) ?? Date.now();
      const now = Date.now();
      setStatus(navigator.onLine ? 'saving' : 'offline');
      await saveQueue.enqueue({
        id: crypto.randomUUID(),
        userId,
        status: 'pending',
        waitingForNetwork: false,
        updatedAt: now,
        createdAt: now,
        entryId,
        name: nameRef.current ?? 'Document.docx',
        workspaceId: workspaceParam(activeWorkspaceId()),
        content,
        baseVersion: baseRef.current,
        draftUpdatedAt,
        outcome: null,
        version: null,
        copyName: null,
        errorMessage: null,
      });
      return true;
    },
    [currentContent, entryId, flushDraft, userId, setStatus, versionId],
  );

  const showServerCopy = useCallback(async () => {
    if (!entryId || !userId) return;
    const server = await readDocument(entryId);
    await cacheServerCopy(userId, { entryId, name: server.name, content: server.content, version: server.version });
    nameRef.current = server.name;
    setName(server.name);
    setPermissions(server.permissions);
    baseRef.current = server.version;
    quillRef.current?.setContents(sectionsToDelta(server.content).ops as never, 'silent');
  }, [entryId, userId]);

  // The editor and the load.
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !entryId || !userId) return;
    let cancelled = false;
    registerEditorFormats();
    const mount = document.createElement('div');
    host.append(mount);
    const quill = new Quill(
      mount,
      editorOptions((files) =>
        uploadImages(files, parentRef.current).catch((uploadError: unknown) => {
          console.error('image upload failed', uploadError);
          return [];
        }),
      ),
    );
    installPasteRules(quill);
    quill.disable();
    quillRef.current = quill;
    dirtyRef.current = false;
    draftPendingRef.current = false;
    draftAtRef.current = null;
    setLoading(true);
    setError(null);
    setShownVersion(null);
    if (versionId) {
      // An earlier version (issue 34): the server's copy only, read-only; no draft, no device copy, no save.
      void (async () => {
        try {
          const server = await readDocument(entryId, versionId);
          if (cancelled) return;
          nameRef.current = server.name;
          setName(server.name);
          setPermissions(server.permissions);
          setShownVersion(server.shownVersion);
          quill.setContents(sectionsToDelta(server.content).ops as never, 'silent');
        } catch (loadError) {
          console.error('document version load failed', loadError);
          if (!cancelled)
            setError(isApiError(loadError) && loadError.status ? getErrorMessage(loadError) : 'Earlier versions can be opened only while online.');
        }
        if (!cancelled) setLoading(false);
      })();
      return () => {
        cancelled = true;
        quillRef.current = null;
        mount.remove();
        host.querySelectorAll('.ql-toolbar').forEach((toolbar) => toolbar.remove());
      };
    }
    quill.on('text-change', (_delta, _old, source) => {
      if (source === 'silent') return;
      dirtyRef.current = true;
      draftPendingRef.current = true;
      if (draftTimer.current) clearTimeout(draftTimer.current);
      draftTimer.current = setTimeout(() => void flushDraft(), DRAFT_DELAY_MS);
    });

    void (async () => {
      const local = await localCopy(userId, entryId);
      if (cancelled) return;
      if (local) {
        if (local.isDraft) draftAtRef.current = (await draftOf(userId, entryId))?.updatedAt ?? null;
        quill.setContents(sectionsToDelta(local.content).ops as never, 'silent');
        baseRef.current = local.version;
        nameRef.current = local.name;
        setName(local.name);
        quill.enable();
        setLoading(false);
      }
      const latest = await saveQueue.latest(userId, entryId);
      if (latest && !cancelled) setStatus(statusOf(latest, navigator.onLine));
      if (local?.isDraft) {
        // A draft not yet on the server (an edit made before a reload or offline): its save is queued again.
        dirtyRef.current = true;
        void saveNow();
      }
      // A screen closed while the device's copy was read asks the server nothing.
      if (cancelled) return;
      try {
        const server = await readDocument(entryId);
        if (cancelled) return;
        await cacheServerCopy(userId, { entryId, name: server.name, content: server.content, version: server.version });
        nameRef.current = server.name;
        parentRef.current = server.parentId;
        setName(server.name);
        setPermissions(server.permissions);
        const draft = await draftOf(userId, entryId);
        if (!draft && !dirtyRef.current && (!local || local.version !== server.version)) {
          quill.setContents(sectionsToDelta(server.content).ops as never, 'silent');
          baseRef.current = server.version;
        }
      } catch (loadError) {
        // Spec §8: load failures are logged; with nothing on the device the screen says why.
        console.error('document load failed', loadError);
        if (!local && !cancelled) {
          setError(isApiError(loadError) && loadError.status ? getErrorMessage(loadError) : 'This document is not available offline.');
        }
      }
      if (cancelled) return;
      quill.enable();
      setLoading(false);
    })();

    return () => {
      cancelled = true;
      void flushDraft();
      quillRef.current = null;
      mount.remove();
      host.querySelectorAll('.ql-toolbar').forEach((toolbar) => toolbar.remove());
    };
  }, [entryId, userId, versionId, flushDraft, saveNow, setStatus]);

  // What the queue says about this document's saves.
  useEffect(() => {
    // An earlier version shown read-only has no saves of its own, and a conflict must not load the current copy into it.
    if (!entryId || !userId || versionId) return;
    return saveQueue.watch(userId, (item) => {
      if (item.entryId !== entryId) return;
      const next = statusOf(item, navigator.onLine);
      setStatus(next);
      if (next !== 'saving') {
        const waiting = settledRef.current;
        settledRef.current = [];
        for (const settle of waiting) settle(next === 'saved' || next === 'conflict');
      }
      if (item.status !== 'completed') return;
      if (item.outcome === 'saved' && item.version && item.baseVersion === baseRef.current) baseRef.current = item.version;
      if (item.outcome === 'conflict') {
        dirtyRef.current = false;
        void showServerCopy().catch((loadError: unknown) => console.error('document reload failed', loadError));
      }
    });
  }, [entryId, userId, versionId, showServerCopy, setStatus]);

  // Auto-save every 50 s, Ctrl+S, and when the page is hidden or closed.
  useEffect(() => {
    const timer = setInterval(() => void saveNow(), AUTO_SAVE_MS);
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveNow(true);
      }
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void saveNow();
    };
    const onPageHide = () => void saveNow();
    window.addEventListener('keydown', onKey);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      clearInterval(timer);
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [saveNow]);

  /**
   * Saves what is not saved yet and answers once the server has it (true), or once it is kept on the
   * device or refused (false). Nothing to save and nothing in flight: true at once.
   */
  const saveSettled = useCallback(async (): Promise<boolean> => {
    const queued = await saveNow();
    if (!queued && statusRef.current !== 'saving') return true;
    return new Promise<boolean>((resolve) => settledRef.current.push(resolve));
  }, [saveNow]);

  /** A rename the server accepted: later saves (and a conflict's copy) carry the new name. */
  const renamed = useCallback((next: string) => {
    nameRef.current = next;
    setName(next);
  }, []);

  return { hostRef, loading, error, name, status, permissions, shownVersion, saveNow, saveSettled, renamed };
}
