import { useReducer, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { SelectField } from '../../../ui/form/SelectField';
import { TextField } from '../../../ui/form/TextField';
import { Spinner } from '../../../ui/Spinner';
import { useAdminPage, useSavePage, type AdminPage } from './api';
import { RichTextEditor } from './RichTextEditor';
import { initialSlugState, slugReducer } from './slug';
import { useAdminSave } from '../use-admin-save';
import { FormButtons } from '../../../ui/form/FormButtons';

/** /admin/pages/new and /admin/pages/:id/edit. */
export function PageEditorRoute() {
  const { id } = useParams();
  const pageId = id ? Number(id) : null;
  const page = useAdminPage(pageId);
  if (pageId === null) return <PageEditor page={null} />;
  if (page.isPending) return <Spinner />;
  if (page.isError) return <p role="alert">{getErrorMessage(page.error)}</p>;
  return <PageEditor key={page.data.id} page={page.data} />;
}

type Mode = 'rich' | 'html' | 'preview';

/** A page's title, slug (following the title until edited), visibility, SEO fields and body in three modes. */
export function PageEditor({ page }: { page: AdminPage | null }) {
  const { t } = useTrans();
  const navigate = useNavigate();
  const save = useAdminSave(useSavePage(page?.id ?? null), {
    done: page ? t('Updated page') : t('Created page'),
    onSaved: (saved) => {
      // The server cleaned the body: show what was stored.
      setBody(saved.body);
      if (!page) void navigate(`/admin/pages/${saved.id}/edit`, { replace: true });
    },
    fields: ['title', 'slug', 'body', 'meta.description', 'meta.keywords', 'meta.og_image'],
  });
  const [names, dispatch] = useReducer(slugReducer, page, initialSlugState);
  const [body, setBody] = useState(page?.body ?? '');
  const [mode, setMode] = useState<Mode>('rich');
  const [visibility, setVisibility] = useState<'public' | 'signed_in'>(page?.visibility ?? 'public');
  const [description, setDescription] = useState(page?.meta.description ?? '');
  const [keywords, setKeywords] = useState(page?.meta.keywords ?? '');
  const [ogImage, setOgImage] = useState(page?.meta.og_image ?? '');
  const error = save.error;

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    save.submit({ title: names.title, slug: names.slug, body, visibility, meta: { description, keywords, og_image: ogImage } });
  };

  const modes: [Mode, string][] = [
    ['rich', t('Rich text')],
    ['html', t('HTML source')],
    ['preview', t('Preview')],
  ];
  return (
    <form onSubmit={handleSubmit} className="flex max-w-4xl flex-col gap-4">
      <h1 className="text-xl font-semibold">{page ? t('Edit page') : t('New page')}</h1>
      <TextField label={t('Title')} required value={names.title} onChange={(e) => dispatch({ type: 'title', value: e.target.value })} error={error('title')} />
      <TextField
        label={t('Slug')}
        required
        value={names.slug}
        onChange={(e) => dispatch({ type: 'slug', value: e.target.value })}
        error={error('slug')}
        description={t('The page address: /pages/:slug', { slug: names.slug || '…' })}
      />
      <SelectField label={t('Visible to')} value={visibility} onChange={(e) => setVisibility(e.target.value === 'signed_in' ? 'signed_in' : 'public')}>
        <option value="public">{t('Everyone')}</option>
        <option value="signed_in">{t('Signed-in users')}</option>
      </SelectField>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">{t('Search engines and link previews')}</legend>
        <TextField label={t('Meta description')} value={description} onChange={(e) => setDescription(e.target.value)} error={error('meta.description')} />
        <TextField label={t('Keywords')} value={keywords} onChange={(e) => setKeywords(e.target.value)} error={error('meta.keywords')} />
        <TextField label={t('Preview image address')} value={ogImage} onChange={(e) => setOgImage(e.target.value)} error={error('meta.og_image')} />
      </fieldset>
      <div>
        <div role="tablist" aria-label={t('Body')} className="mb-2 flex gap-1">
          {modes.map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={mode === value}
              className={`rounded px-3 py-1.5 text-sm ${mode === value ? 'bg-primary/10 font-semibold text-primary' : 'hover:bg-fg/5'}`}
              onClick={() => setMode(value)}
            >
              {label}
            </button>
          ))}
        </div>
        {mode === 'rich' && <RichTextEditor initialHtml={body} onChange={setBody} label={t('Body')} />}
        {mode === 'html' && (
          <textarea
            aria-label={t('HTML source')}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            spellCheck={false}
            className="block min-h-64 w-full rounded border border-divider bg-paper p-2 font-mono text-sm"
          />
        )}
        {mode === 'preview' && (
          // Sandboxed (no scripts, its own origin): the preview shows the HTML as typed, before the server cleans it.
          <iframe title={t('Preview')} sandbox="" srcDoc={body} className="h-96 w-full rounded border border-divider bg-white" />
        )}
        {error('body') && <p className="mt-1 text-sm text-danger">{error('body')}</p>}
      </div>
      <FormButtons onCancel={() => void navigate('/admin/pages')} pending={save.isPending} cancelLabel={t('Back to pages')} />
    </form>
  );
}
