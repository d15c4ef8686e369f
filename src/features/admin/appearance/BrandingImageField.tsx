import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { TextField } from '../../../ui/form/TextField';
import { toast } from '../../../ui/toast/toast-store';
import { useUploadBranding } from '../appearance-api';

/** A logo or favicon: an uploaded image (type and size checked by the server) or an address. */
export function BrandingImageField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (url: string) => void;
}) {
  const { t } = useTrans();
  const upload = useUploadBranding();
  const uploadError = getFieldError(upload.error, 'file');
  return (
    <div className="flex flex-col gap-1">
      <TextField label={label} value={value} onChange={(e) => onChange(e.target.value)} error={error ?? uploadError} />
      <div className="flex items-center gap-2">
        {value && <img src={value} alt="" className="h-8 max-w-24 rounded border border-divider object-contain" />}
        <label className="cursor-pointer text-sm text-primary hover:underline">
          {t('Upload')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/x-icon,image/svg+xml"
            className="sr-only"
            aria-label={t('Upload :name', { name: label })}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              upload.mutate(file, {
                onSuccess: ({ url }) => onChange(url),
                onError: (err) => {
                  if (!getFieldError(err, 'file')) toast.danger(getErrorMessage(err));
                },
              });
            }}
          />
        </label>
      </div>
    </div>
  );
}
