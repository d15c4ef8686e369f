import type { ReactNode } from 'react';

/**
 * A toolbar button that stays focusable when it cannot act, so its reason
 * ("Not available while offline") is read out (aria-description) and shown
 * on hover (title), which a disabled button would hide.
 */
export function ActionButton({
  label,
  onPress,
  disabledReason,
  children,
  className = '',
  pressed,
}: {
  label: string;
  onPress: () => void;
  disabledReason?: string | null;
  children: ReactNode;
  className?: string;
  pressed?: boolean;
}) {
  const disabled = !!disabledReason;
  return (
    <button
      type="button"
      aria-label={label}
      aria-disabled={disabled || undefined}
      aria-description={disabledReason ?? undefined}
      aria-pressed={pressed}
      title={disabledReason ? `${label}: ${disabledReason}` : label}
      onClick={disabled ? undefined : onPress}
      className={`inline-flex size-9 items-center justify-center rounded-full text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-pressed:bg-primary/15 aria-pressed:text-primary ${className}`}
    >
      {children}
    </button>
  );
}
