import { useTrans } from '../../i18n/use-trans';
import { primaryButtonClass, secondaryButtonClass } from './field-classes';

/** A form's closing row: a way out and the submit, which waits while the save is under way. */
export function FormButtons({ onCancel, pending, cancelLabel }: { onCancel: () => void; pending: boolean; cancelLabel?: string }) {
  const { t } = useTrans();
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className={secondaryButtonClass} onClick={onCancel}>
        {cancelLabel ?? t('Cancel')}
      </button>
      <button type="submit" className={primaryButtonClass} disabled={pending}>
        {t('Save')}
      </button>
    </div>
  );
}
