import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/toast/toast-store';
import { useCreateLink, useDeleteAllLinks, useDeleteLink, useShareLinks, useUpdateLink, type ShareLink } from '../api/links';
import { linkSummary } from '../lib/link-summary';
import { LinkAccessLog } from './LinkAccessLog';
import { LinkSettingsForm } from './LinkSettingsForm';

/** The Share dialog's link part: an entry's links, each with its settings, copy, access log and delete. */
export function LinkSection({ entry }: { entry: { hash: string; type: string } }) {
  const { t } = useTrans();
  const links = useShareLinks(entry.hash);
  const create = useCreateLink(entry.hash);
  const removeAll = useDeleteAllLinks(entry.hash);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const list = links.data ?? [];

  return (
    <section aria-label={t('Share by link')} className="mt-4 space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{t('Share by link')}</h3>
        {!creating && (
          <Button className={secondaryButtonClass} onPress={() => setCreating(true)}>
            {t('Create link')}
          </Button>
        )}
      </div>
      {links.isLoading && <Spinner />}
      {creating && (
        <LinkSettingsForm
          link={null}
          isFolder={entry.type === 'folder'}
          pending={create.isPending}
          serverError={error}
          submitLabel="Create link"
          onCancel={() => setCreating(false)}
          onSubmit={(settings) => {
            setError(undefined);
            create.mutate(settings, {
              onSuccess: () => setCreating(false),
              onError: (failure) => setError(getErrorMessage(failure)),
            });
          }}
        />
      )}
      <ul className="space-y-2" aria-label={t('Links')}>
        {list.map((link) => (
          <LinkRow key={link.id} link={link} entry={entry} />
        ))}
      </ul>
      {list.length > 1 && (
        <Button
          className={secondaryButtonClass}
          isDisabled={removeAll.isPending}
          onPress={() => removeAll.mutate(undefined, { onSuccess: ({ message }) => toast.positive(message), onError: (e) => toast.danger(getErrorMessage(e)) })}
        >
          {t('Remove all links')}
        </Button>
      )}
    </section>
  );
}

function LinkRow({ link, entry }: { link: ShareLink; entry: { hash: string; type: string } }) {
  const { t } = useTrans();
  const update = useUpdateLink(entry.hash);
  const remove = useDeleteLink(entry.hash);
  const [open, setOpen] = useState<'settings' | 'log' | null>(null);
  const [error, setError] = useState<string | undefined>();
  const toggle = (panel: 'settings' | 'log') => setOpen((current) => (current === panel ? null : panel));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      toast.positive(t('Link copied'));
    } catch {
      toast.danger(t('Could not copy the link; select it and copy it by hand.'));
    }
  };

  return (
    <li className="space-y-2 rounded border border-divider p-2" data-testid="share-link">
      <div className="flex items-center gap-2">
        <input readOnly value={link.url} aria-label={t('Link address')} className={`${inputClass} min-w-0 flex-1 text-sm`} onFocus={(e) => e.target.select()} />
        <Button className={secondaryButtonClass} onPress={() => void copy()}>
          {t('Copy link')}
        </Button>
      </div>
      <p className="text-xs text-fg-muted" data-testid="share-link-summary">
        {linkSummary(link)
          .map((part) => t(part.key, part.values))
          .join(' · ')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button className={secondaryButtonClass} onPress={() => toggle('settings')} aria-expanded={open === 'settings'}>
          {t('Settings')}
        </Button>
        <Button className={secondaryButtonClass} onPress={() => toggle('log')} aria-expanded={open === 'log'}>
          {t('Access log')}
        </Button>
        <Button
          className={secondaryButtonClass}
          isDisabled={remove.isPending}
          onPress={() => remove.mutate(link.id, { onSuccess: ({ message }) => toast.positive(message), onError: (e) => toast.danger(getErrorMessage(e)) })}
        >
          {t('Delete link')}
        </Button>
      </div>
      {open === 'settings' && (
        <LinkSettingsForm
          link={link}
          isFolder={entry.type === 'folder'}
          pending={update.isPending}
          serverError={error}
          submitLabel="Save"
          onCancel={() => setOpen(null)}
          onSubmit={(settings) => {
            setError(undefined);
            update.mutate(
              { linkId: link.id, settings },
              { onSuccess: () => (setOpen(null), toast.positive(t('Link updated'))), onError: (failure) => setError(getErrorMessage(failure)) },
            );
          }}
        />
      )}
      {open === 'log' && <LinkAccessLog linkId={link.id} />}
    </li>
  );
}
