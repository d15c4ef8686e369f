import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, linkClass, primaryButtonClass } from '../../../ui/form/field-classes';
import { ConfirmDelete } from '../ConfirmDelete';
import { AdminTable } from '../AdminTable';
import { formatDate } from '../Pager';
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
      <AdminTable
        label={t('Pages')}
        rows={pages.data?.data}
        isLoading={pages.isLoading}
        emptyText="No pages"
        page={pages.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          { key: 'title', label: 'Title', render: (page) => page.title },
          {
            key: 'slug',
            label: 'Address',
            render: (page) => (
              <a className={linkClass} href={`/pages/${page.slug}`} target="_blank" rel="noreferrer">
                /pages/{page.slug}
              </a>
            ),
          },
          { key: 'visibility', label: 'Visible to', render: (page) => (page.visibility === 'signed_in' ? t('Signed-in users') : t('Everyone')) },
          { key: 'updated_at', label: 'Last updated', render: (page) => formatDate(page.updated_at) },
        ]}
        actions={(page) => (
          <>
            <Link to={`/admin/pages/${page.id}/edit`} className={linkClass}>
              {t('Edit')}
            </Link>
            <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(page)}>
              {t('Delete')}
            </button>
          </>
        )}
      />
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
