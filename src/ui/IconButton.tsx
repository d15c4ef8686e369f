import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';
import type { ButtonProps } from 'react-aria-components';

/** Icon-only buttons always carry an accessible label. */
export function IconButton({
  label,
  children,
  className = '',
  ...props
}: { label: string; children: ReactNode } & Omit<ButtonProps, 'children' | 'aria-label'>) {
  return (
    <Button
      aria-label={label}
      className={`relative inline-flex size-10 items-center justify-center rounded-full text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary ${className}`}
      {...props}
    >
      {children}
    </Button>
  );
}
