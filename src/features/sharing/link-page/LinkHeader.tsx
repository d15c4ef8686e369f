import type { ReactNode } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import type { VisitorLink } from '../api/visitor';

/** Whose link it is and what is left of it. */
export function LinkHeader({ link, title, actions }: { link: VisitorLink; title: string; actions?: ReactNode }) {
  const { t } = useTrans();
  return (
    <header className="mb-4 flex flex-wrap items-center gap-3">
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-xl font-semibold">{title}</h1>
        <p className="text-sm text-fg-muted">
          {link.owner_name ? t('Shared by :name', { name: link.owner_name }) : null}
          {link.downloads_left !== null ? ` · ${t(':count downloads left', { count: link.downloads_left })}` : null}
          {link.expires_at ? ` · ${t('Expires :date', { date: new Date(link.expires_at).toLocaleString() })}` : null}
        </p>
      </div>
      {actions}
    </header>
  );
}
