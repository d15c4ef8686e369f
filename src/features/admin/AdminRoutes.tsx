import { useState } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { useIsMobile } from '../../ui/use-media-query';
import { Icon } from '../../ui/icons';
import { useBootstrap } from '../bootstrap/store';
import { ActivityPage } from './ActivityPage';
import { DashboardPage } from './DashboardPage';
import { FilesPage } from './FilesPage';
import { HealthPage } from './HealthPage';
import { WorkspacesPage } from './WorkspacesPage';
import { RolesPage } from './RolesPage';
import { SettingsPage } from './SettingsPage';
import { UsersPage } from './UsersPage';
import { PlansPage } from './plans/PlansPage';
import { SubscriptionsPage } from './plans/SubscriptionsPage';
import { AppearancePage } from './appearance/AppearancePage';
import { LinesEditor } from './localizations/LinesEditor';
import { LocalizationsPage } from './localizations/LocalizationsPage';
import { ThemesPage } from './themes/ThemesPage';
import { PageEditorRoute } from './custom-pages/PageEditor';
import { PagesPage } from './custom-pages/PagesPage';
import { MenusPage } from './menus/MenusPage';

/** The sections of the admin area, each shown to whoever holds its permission (`admin` grants all). */
const sections = [
  { path: 'dashboard', label: 'Dashboard', permission: 'reports.view' },
  { path: 'health', label: 'Health', permission: 'reports.view' },
  { path: 'users', label: 'Users', permission: 'users.view' },
  { path: 'roles', label: 'Roles', permission: 'roles.view' },
  { path: 'settings', label: 'Settings', permission: 'settings.view' },
  { path: 'files', label: 'Files', permission: 'all_files.view' },
  { path: 'workspaces', label: 'Workspaces', permission: 'all_workspaces.view' },
  { path: 'plans', label: 'Plans', permission: 'plans.view' },
  { path: 'subscriptions', label: 'Subscriptions', permission: 'subscriptions.view' },
  { path: 'activity', label: 'Activity log', permission: 'activity.view' },
  { path: 'appearance', label: 'Appearance', permission: 'appearance.update' },
  { path: 'themes', label: 'Themes', permission: 'themes.view' },
  { path: 'localizations', label: 'Localizations', permission: 'localizations.view' },
  { path: 'pages', label: 'Pages', permission: 'custom_pages.view' },
  { path: 'menus', label: 'Menus', permission: 'menus.view' },
] as const;

// Loaded on demand as its own chunk (/admin/*).
export default function AdminRoutes() {
  const { t } = useTrans();
  const { user } = useBootstrap();
  const names = new Set((user?.permissions ?? []).map((p) => p.name));
  const visible = sections.filter((s) => names.has('admin') || names.has(s.permission));
  const isMobile = useIsMobile();
  const { pathname } = useLocation();
  // On a phone the fifteen sections do not fit in a row: the list folds behind a button naming the current one.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const listOpen = !isMobile || openedAt === pathname;
  const current = visible.find((s) => pathname.startsWith(`/admin/${s.path}`)) ?? visible[0];
  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg md:flex-row">
      <nav aria-label={t('Admin')} className="border-b border-divider p-4 md:w-56 md:border-r md:border-b-0">
        {isMobile ? (
          <button
            type="button"
            aria-expanded={listOpen}
            aria-controls="admin-sections"
            onClick={() => setOpenedAt(listOpen ? null : pathname)}
            className="flex w-full items-center gap-2 text-left text-lg font-semibold"
          >
            <span className="min-w-0 flex-1 truncate">
              {t('Admin')}
              {current && <span className="font-normal text-fg-muted"> · {t(current.label)}</span>}
            </span>
            <Icon name="chevronDown" className={`size-5 transition-transform ${listOpen ? 'rotate-180' : ''}`} />
          </button>
        ) : (
          <p className="mb-3 text-lg font-semibold">{t('Admin')}</p>
        )}
        <ul id="admin-sections" className={`mt-3 grid-cols-2 gap-1 md:mt-0 md:flex md:flex-col md:gap-2 ${listOpen ? 'grid' : 'hidden'}`}>
          {visible.map((s) => (
            <li key={s.path}>
              <NavLink
                to={`/admin/${s.path}`}
                onClick={() => setOpenedAt(null)}
                className={({ isActive }) => `block rounded px-3 py-2 text-sm ${isActive ? 'bg-primary/10 font-semibold text-primary' : 'hover:bg-fg/5'}`}
              >
                {t(s.label)}
              </NavLink>
            </li>
          ))}
          <li>
            <NavLink to="/drive" className="block rounded px-3 py-2 text-sm hover:bg-fg/5">
              {t('Back to drive')}
            </NavLink>
          </li>
        </ul>
      </nav>
      <main id="main" className="min-w-0 flex-1 p-4 md:p-6">
        <Routes>
          <Route index element={visible[0] ? <SectionIndex path={visible[0].path} /> : <p>{t('This action is unauthorized.')}</p>} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="health" element={<HealthPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="roles" element={<RolesPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="files" element={<FilesPage />} />
          <Route path="workspaces" element={<WorkspacesPage />} />
          <Route path="plans" element={<PlansPage />} />
          <Route path="subscriptions" element={<SubscriptionsPage />} />
          <Route path="activity" element={<ActivityPage />} />
          <Route path="appearance" element={<AppearancePage />} />
          <Route path="themes" element={<ThemesPage />} />
          <Route path="localizations" element={<LocalizationsPage />} />
          <Route path="localizations/:id" element={<LinesEditor />} />
          <Route path="pages" element={<PagesPage />} />
          <Route path="pages/new" element={<PageEditorRoute />} />
          <Route path="pages/:id/edit" element={<PageEditorRoute />} />
          <Route path="menus" element={<MenusPage />} />
        </Routes>
      </main>
    </div>
  );
}

function SectionIndex({ path }: { path: string }) {
  const Page =
    {
      dashboard: DashboardPage,
      health: HealthPage,
      users: UsersPage,
      roles: RolesPage,
      settings: SettingsPage,
      files: FilesPage,
      workspaces: WorkspacesPage,
      plans: PlansPage,
      subscriptions: SubscriptionsPage,
      activity: ActivityPage,
      appearance: AppearancePage,
      themes: ThemesPage,
      localizations: LocalizationsPage,
      pages: PagesPage,
      menus: MenusPage,
    }[path] ?? UsersPage;
  return <Page />;
}
