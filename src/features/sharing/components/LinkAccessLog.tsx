import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { secondaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { useLinkEvents, type LinkEvent } from '../api/links';

const KIND_LABELS: Record<LinkEvent['kind'], string> = {
  open: 'Opened',
  preview: 'Previewed',
  download: 'Downloaded',
  upload: 'Uploaded',
  'password-failed': 'Wrong password',
};

/** Who opened a link: when, what, and from which network (anonymised by the server). */
export function LinkAccessLog({ linkId }: { linkId: number }) {
  const { t } = useTrans();
  const [page, setPage] = useState(1);
  const events = useLinkEvents(linkId, page);
  if (events.isLoading) return <Spinner />;
  const data = events.data;
  if (!data?.data.length) return <p className="text-sm text-fg-muted">{t('Nobody has used this link yet.')}</p>;
  return (
    <div className="space-y-2">
      <table className="w-full text-left text-xs" aria-label={t('Access log')}>
        <thead className="text-fg-muted">
          <tr>
            <th className="py-1 font-medium">{t('When')}</th>
            <th className="py-1 font-medium">{t('What')}</th>
            <th className="py-1 font-medium">{t('Network')}</th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((event) => (
            <tr key={event.id} className="border-t border-divider" data-testid="link-event">
              <td className="py-1 pr-2 whitespace-nowrap">{new Date(event.created_at).toLocaleString()}</td>
              <td className="py-1 pr-2">
                {t(KIND_LABELS[event.kind])}
                {event.entry_name ? `: ${event.entry_name}` : ''}
              </td>
              <td className="py-1 text-fg-muted">{event.address ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.last_page > 1 && (
        <div className="flex items-center justify-end gap-2">
          <Button isDisabled={page <= 1} onPress={() => setPage((p) => p - 1)} className={secondaryButtonClass}>
            {t('Previous')}
          </Button>
          <span className="text-xs text-fg-muted">{t(':page of :last', { page, last: data.last_page })}</span>
          <Button isDisabled={page >= data.last_page} onPress={() => setPage((p) => p + 1)} className={secondaryButtonClass}>
            {t('Next')}
          </Button>
        </div>
      )}
    </div>
  );
}
