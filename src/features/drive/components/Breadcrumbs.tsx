import { Link } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import type { FolderCrumb } from '../api/types';
import { folderPath, ROOT_HASH } from '../lib/views';

/** Root › … › current folder; the last crumb is the page's heading. `rootLabel` is shown as given (translated, or a workspace's name). */
export function Breadcrumbs({ path, fallbackName, rootLabel }: { path: FolderCrumb[] | null; fallbackName: string; rootLabel: string }) {
  const { t } = useTrans();
  const crumbs = path ?? [];
  const current = crumbs.at(-1);
  return (
    <nav aria-label={t('Breadcrumbs')} className="flex min-w-0 items-center gap-1 text-lg">
      {current && (
        <>
          <Link to={folderPath(ROOT_HASH)} className="shrink-0 rounded px-1 text-fg-muted hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary">
            {rootLabel}
          </Link>
          {crumbs.slice(0, -1).map((crumb) => (
            <span key={crumb.hash} className="flex min-w-0 items-center gap-1">
              <Icon name="chevronRight" className="size-5 shrink-0 text-fg-muted" />
              <Link
                to={folderPath(crumb.hash)}
                className="truncate rounded px-1 text-fg-muted hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary"
              >
                {crumb.name}
              </Link>
            </span>
          ))}
          <Icon name="chevronRight" className="size-5 shrink-0 text-fg-muted" />
        </>
      )}
      <h1 className="truncate px-1 font-semibold">{current?.name ?? (fallbackName || rootLabel)}</h1>
    </nav>
  );
}
