import { useRef, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { Button } from 'react-aria-components';
import type { AccountUser } from '../../api/api-types';
import { getErrorMessage, getFieldError } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useRemoveAvatar, useUploadAvatar } from './api';
import { AVATAR_ACCEPT, AVATAR_INVALID, AVATAR_PREVIEW_SIZE, checkAvatarFile } from './avatar-file';

/** Profile image: 110 px preview, upload (image types, ≤ 2 MB), from an address, or remove. */
export function AvatarPicker({ user }: { user: AccountUser }) {
  const { t } = useTrans();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [showUrl, setShowUrl] = useState(false);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const upload = useUploadAvatar(user.id);
  const remove = useRemoveAvatar(user.id);
  const busy = upload.isPending || remove.isPending;

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    const problem = checkAvatarFile(file);
    setFileError(problem);
    if (problem || !file) return;
    upload.mutate(
      { file },
      {
        // Spec §5: a file-field error on avatar upload is shown as a toast.
        onError: (error) => toast.danger(getFieldError(error, 'avatar') ?? getFieldError(error, 'file') ?? getErrorMessage(error)),
      },
    );
  };

  const handleUrl = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!/^https?:\/\/\S+$/i.test(url.trim())) {
      setUrlError(AVATAR_INVALID);
      return;
    }
    setUrlError(null);
    upload.mutate(
      { url: url.trim() },
      {
        onSuccess: () => {
          setShowUrl(false);
          setUrl('');
        },
        onError: (error) => {
          const message = getFieldError(error, 'url') ?? getFieldError(error, 'avatar');
          if (message) setUrlError(message);
          else toast.danger(getErrorMessage(error));
        },
      },
    );
  };

  const initial = (user.display_name || user.email).charAt(0).toUpperCase();
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      {user.avatar ? (
        <img
          src={user.avatar}
          alt={t('Profile image')}
          width={AVATAR_PREVIEW_SIZE}
          height={AVATAR_PREVIEW_SIZE}
          className="size-[110px] shrink-0 rounded-full object-cover"
        />
      ) : (
        <span
          role="img"
          aria-label={t('Profile image')}
          className="inline-flex size-[110px] shrink-0 items-center justify-center rounded-full bg-primary text-4xl font-semibold text-on-primary"
        >
          {initial}
        </span>
      )}
      <div className="flex-1 space-y-2">
        <div className="flex flex-wrap gap-2">
          <Button isDisabled={busy} onPress={() => fileInput.current?.click()} className={secondaryButtonClass}>
            {t('Upload image')}
          </Button>
          <Button isDisabled={busy} onPress={() => setShowUrl((v) => !v)} aria-expanded={showUrl} className={secondaryButtonClass}>
            {t('From URL')}
          </Button>
          {user.avatar && (
            <Button
              isDisabled={busy}
              onPress={() => remove.mutate(undefined, { onError: (error) => toast.danger(getErrorMessage(error)) })}
              className={secondaryButtonClass}
            >
              {t('Remove image')}
            </Button>
          )}
        </div>
        <input ref={fileInput} type="file" accept={AVATAR_ACCEPT} aria-label={t('Profile image')} className="sr-only" tabIndex={-1} onChange={handleFile} />
        {fileError && (
          <p role="alert" className="text-sm text-danger">
            {t(fileError)}
          </p>
        )}
        {showUrl && (
          <form onSubmit={handleUrl} noValidate className="flex items-end gap-2">
            <TextField
              label={t('Image URL')}
              type="url"
              inputMode="url"
              placeholder="https://"
              className="flex-1"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              error={urlError ?? undefined}
            />
            <button type="submit" disabled={busy} className={`${secondaryButtonClass} mb-px`}>
              {t('Save')}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
