import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { nextTask, whenIdle } from '../../app/tasks';
import { showUnreadBadge } from '../../offline/notifications';
import { useBootstrap } from '../bootstrap/store';
import type { LaunchContext } from './installed-app';
import type { LaunchQueueLike } from './launch-consumer';

/**
 * The module with the upload queue and IndexedDB clients, once the browser is idle: the first paint and
 * hydration of a page (a sign-in page above all) neither wait for nor pay for its ~60 KB of script (issue 38.1).
 */
const installedApp = () => whenIdle().then(() => import('./installed-app'));

/**
 * What makes the installed app behave like an app (issue 39 item 5), run
 * once by the shell: the icon's badge follows the unread count, files shared
 * into the app are claimed for the signed-in user, and .docx files opened
 * from the OS go into the drive and the editor.
 */
export function useInstalledApp(): void {
  const { user, settings } = useBootstrap();
  const navigate = useNavigate();
  const userId = user ? String(user.id) : null;
  const unread = user?.unread_notifications_count ?? 0;

  // Signed out, the badge goes: it would tell whoever holds the device about someone else's account.
  useEffect(() => void showUnreadBadge(navigator, unread), [unread]);

  useEffect(() => {
    void whenIdle()
      .then(() => import('./remember-settings'))
      // Dexie's evaluation and the database's opening, each a task of its own.
      .then((module) => nextTask().then(() => module.rememberSettings(settings.uploads)))
      .catch(() => undefined);
  }, [settings.uploads]);

  useEffect(() => {
    if (userId)
      void installedApp()
        .then((app) => app.claimSharedUploads(userId))
        .catch(() => undefined);
  }, [userId]);

  // The launch queue is the window's for its whole life: one consumer, reading who is signed in when a launch comes.
  const current = useRef<LaunchContext>({ userId, uploads: settings.uploads, navigate });
  useEffect(() => {
    current.current = { userId, uploads: settings.uploads, navigate };
  }, [userId, settings.uploads, navigate]);
  useEffect(() => {
    const scope = window as { launchQueue?: LaunchQueueLike };
    // Only an installed app has a launch queue (the first launch waits in it until a consumer is set).
    if (!scope.launchQueue) return;
    void installedApp()
      .then((app) => app.startLaunches(scope, () => current.current))
      .catch(() => undefined);
  }, []);
}
