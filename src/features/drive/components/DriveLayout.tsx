import { useEffect } from 'react';
import { useAtom } from 'jotai';
import { Outlet } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { useIsMobile } from '../../../ui/use-media-query';
import { SIDEBAR_BREAKPOINT, sidebarOpenAtom, useSidebarShown } from '../../navigation/sidebar-state';
import { useFolderTree } from '../api';
import { DriveDialogs } from '../dialogs/DriveDialogs';
import { DriveSidebar } from './DriveSidebar';
import { UploadPanel } from '../../uploads';
import { PreviewOverlay } from './PreviewOverlay';
import { InvitePrompt } from '../../workspaces/components/InvitePrompt';
import { WorkspaceDialogs } from '../../workspaces/dialogs/WorkspaceDialogs';
import { useOfflineFiles } from '../offline/use-offline-files';

/** The drive area: sidebar (hidden at first under 576 px), the current view, dialogs and the preview. */
export function DriveLayout() {
  const { t } = useTrans();
  const isMobile = useIsMobile();
  const [sidebarOpen, setSidebarOpen] = useAtom(sidebarOpenAtom);
  useSidebarShown();
  // Keeps the folder tree on the device (offline breadcrumbs, move dialog).
  useFolderTree();
  // Pinned entries stay in sync while the drive is open, and its listings show what the sync changed.
  useOfflineFiles();

  useEffect(() => {
    setSidebarOpen(window.innerWidth >= SIDEBAR_BREAKPOINT);
  }, [setSidebarOpen]);

  return (
    <div className="relative flex h-[calc(100dvh-4rem)] min-h-0">
      {sidebarOpen && (
        <>
          {isMobile && (
            <button type="button" aria-label={t('Close sidebar')} className="fixed inset-0 top-16 z-20 bg-black/30" onClick={() => setSidebarOpen(false)} />
          )}
          <div className={isMobile ? 'fixed bottom-0 left-0 top-16 z-30 shadow-xl' : 'h-full'}>
            <DriveSidebar />
          </div>
        </>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <InvitePrompt />
        <Outlet />
      </div>
      <DriveDialogs />
      <WorkspaceDialogs />
      <PreviewOverlay />
      <UploadPanel />
    </div>
  );
}
