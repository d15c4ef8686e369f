import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, linkClass, primaryButtonClass } from '../../../ui/form/field-classes';
import { ConfirmDelete } from '../ConfirmDelete';
import { formatDate, Pager } from '../Pager';
import { useAdminPages, useDeletePage, type AdminPage, type PageQuery } from './api';

/** Custom pages: search, open in the editor, view, delete (with confirmation). */
export function PagesPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<PageQuery>({ page: 1 });
  const pages = useAdminPages(query);
  const remove = useDeletePage();
  const [deleting, setDeleting] = useState<AdminPage | null>(null);
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Pages')}</h1>
        <input
          type="search"
          aria-label={t('Search pages')}
          placeholder={t('Search pages')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => setQuery({ page: 1, ...(e.target.value ? { query: e.target.value } : {}) })}
        />
        <Link to="/admin/pages/new" className={primaryButtonClass}>
          {t('New page')}
        </Link>
      </div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-divider">
            <th className="p-2">{t('Title')}</th>
            <th className="p-2">{t('Address')}</th>
            <th className="p-2">{t('Visible to')}</th>
            <th className="p-2">{t('Last updated')}</th>
            <th className="p-2">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {(pages.data?.data ?? []).map((page) => (
            <tr key={page.id} className="border-b border-divider">
              <td className="p-2">{page.title}</td>
              <td className="p-2">
                <a className={linkClass} href={`/pages/${page.slug}`} target="_blank" rel="noreferrer">
                  /pages/{page.slug}
                </a>
              </td>
              <td className="p-2">{page.visibility === 'signed_in' ? t('Signed-in users') : t('Everyone')}</td>
              <td className="p-2">{formatDate(page.updated_at)}</td>
              <td className="p-2">
                <Link to={`/admin/pages/${page.id}/edit`} className={`mr-2 ${linkClass}`}>
                  {t('Edit')}
                </Link>
                <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(page)}>
                  {t('Delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data && (
        <Pager page={pages.data.current_page} lastPage={pages.data.last_page} total={pages.data.total} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
      )}
      {deleting && (
        <ConfirmDelete
          id={deleting.id}
          title={t('Delete page')}
          body={t('Delete the page :title? Links to it will show the not-found page.', { title: deleting.title })}
          success={t('Deleted page')}
          mutation={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
