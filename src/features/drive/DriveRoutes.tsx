import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '../../app/pages/NotFoundPage';
import { OfflineFilesPage } from '../offline-files/OfflineFilesPage';
import { DriveLayout } from './components/DriveLayout';
import { FixedView, FolderView } from './views/FolderView';
import { SearchView } from './views/SearchView';
import { WorkspaceActivityPage } from './views/WorkspaceActivityPage';

// Loaded on demand as its own chunk (/drive/*): spec §2 drive screens.
export default function DriveRoutes() {
  return (
    <Routes>
      <Route element={<DriveLayout />}>
        <Route index element={<FolderView />} />
        <Route path="folders/:hash" element={<FolderView />} />
        <Route path="recent" element={<FixedView id="recent" />} />
        <Route path="sql" element={<FixedView id="sql" />} />
        <Route path="search" element={<SearchView />} />
        <Route path="shares" element={<FixedView id="shares" />} />
        <Route path="trash" element={<FixedView id="trash" />} />
        <Route path="starred" element={<FixedView id="starred" />} />
        <Route path="offline" element={<OfflineFilesPage />} />
        <Route path="workspace/:workspaceId/activity" element={<WorkspaceActivityPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
