import { useId, useState } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import { addChips, chipsFromText, toChip } from '../lib/email-chips';
import type { EmailChip } from '../lib/email-chips';

/** Spec §5 "Invite emails": typed or pasted addresses become chips; bad ones say 'Not a valid email'. */
export function EmailChipInput({
  chips,
  onChange,
  disabled,
  text: givenText,
  onTextChange,
}: {
  chips: EmailChip[];
  onChange: (chips: EmailChip[]) => void;
  disabled?: boolean;
  /** The address being typed, when the form sends it too (see withPending). */
  text?: string;
  onTextChange?: (text: string) => void;
}) {
  const { t } = useTrans();
  const [ownText, setOwnText] = useState('');
  const text = givenText ?? ownText;
  const setText = (value: string) => (onTextChange ? onTextChange(value) : setOwnText(value));
  const errorId = useId();
  const commit = () => {
    const chip = toChip(text);
    if (chip) onChange(addChips(chips, [chip]));
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === ' ') {
      if (!text.trim()) return;
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && !text && chips.length) {
      onChange(chips.slice(0, -1));
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    if (!pasted.trim()) return;
    event.preventDefault();
    onChange(addChips(chips, chipsFromText(`${text} ${pasted}`)));
    setText('');
  };
  const anyInvalid = chips.some((chip) => chip.invalid);
  return (
    <div>
      <div className="flex min-h-11 flex-wrap items-center gap-1.5 rounded-md border border-divider bg-bg px-2 py-1.5 focus-within:outline-2 focus-within:outline-primary">
        <ul className="contents" aria-label={t('Enter email addresses')}>
          {chips.map((chip) => (
            <li
              key={chip.id}
              data-invalid={chip.invalid || undefined}
              title={chip.invalid ? t('Not a valid email') : undefined}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-fg/10 py-0.5 pl-2.5 pr-1 text-sm data-[invalid]:bg-danger/15 data-[invalid]:text-danger"
            >
              <span className="truncate">{chip.name}</span>
              <button
                type="button"
                aria-label={`${t('Remove')} ${chip.name}`}
                disabled={disabled}
                onClick={() => onChange(chips.filter((c) => c.id !== chip.id))}
                className="inline-flex size-5 items-center justify-center rounded-full hover:bg-fg/10"
              >
                <Icon name="close" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
        <input
          type="text"
          inputMode="email"
          aria-label={t('Enter email addresses')}
          aria-invalid={anyInvalid || undefined}
          aria-describedby={anyInvalid ? errorId : undefined}
          placeholder={chips.length ? '' : t('Enter email addresses')}
          value={text}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => text.trim() && commit()}
          className="min-w-40 flex-1 bg-transparent py-1 text-sm outline-none"
        />
      </div>
      {anyInvalid && (
        <p id={errorId} role="alert" className="mt-1 text-sm text-danger">
          {t('Not a valid email')}
        </p>
      )}
    </div>
  );
}
