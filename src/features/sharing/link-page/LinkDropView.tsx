import { useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { primaryButtonClass } from '../../../ui/form/field-classes';
import { useDropUpload, type LinkEntry, type VisitorLink } from '../api/visitor';
import { LinkHeader } from './LinkHeader';

interface Sent {
  id: number;
  name: string;
  state: 'sending' | 'done' | 'failed';
  error?: string;
}

/** A file drop: anyone with the link may upload into the folder, and sees only what they sent themselves. */
export function LinkDropView({ token, link, entry }: { token: string; link: VisitorLink; entry: LinkEntry }) {
  const { t } = useTrans();
  const upload = useDropUpload(token);
  const input = useRef<HTMLInputElement>(null);
  const [sent, setSent] = useState<Sent[]>([]);
  const [dragging, setDragging] = useState(false);
  const nextId = useRef(0);

  const send = async (files: File[]) => {
    // One at a time: the owner's quota is checked per file, and a refusal names its file.
    for (const file of files) {
      const id = (nextId.current += 1);
      setSent((list) => [...list, { id, name: file.name, state: 'sending' }]);
      try {
        await upload.mutateAsync(file);
        setSent((list) => list.map((s) => (s.id === id ? { ...s, state: 'done' } : s)));
      } catch (error) {
        setSent((list) => list.map((s) => (s.id === id ? { ...s, state: 'failed', error: getErrorMessage(error) } : s)));
      }
    }
  };

  return (
    <>
      <LinkHeader link={link} title={entry.name} />
      <div
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-10 text-center ${dragging ? 'border-primary bg-primary/5' : 'border-divider'}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void send([...event.dataTransfer.files]);
        }}
      >
        <p className="text-lg font-medium">{t('Drop files here to send them to :name', { name: link.owner_name ?? '' })}</p>
        <p className="text-sm text-fg-muted">{t('You will not see the files others sent, and they will not see yours.')}</p>
        <Button className={primaryButtonClass} onPress={() => input.current?.click()}>
          {t('Choose files')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label={t('Choose files')}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void send(files);
          }}
        />
      </div>
      {sent.length > 0 && (
        <ul className="mt-4 divide-y divide-divider" aria-label={t('Sent files')}>
          {sent.map((item) => (
            <li key={item.id} className="flex items-center justify-between gap-2 py-2 text-sm" data-testid="dropped-file">
              <span className="truncate">{item.name}</span>
              <span className={item.state === 'failed' ? 'text-danger' : 'text-fg-muted'}>
                {item.state === 'sending' ? t('Sending…') : item.state === 'done' ? t('Sent') : item.error}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
