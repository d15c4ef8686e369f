import type { FormHTMLAttributes } from 'react';
import { useHydrated } from '../use-hydrated';

/**
 * A form of a screen the server writes (the sign-in, registration and password screens). Until React
 * runs the page its fields are disabled: the browser would otherwise send the form itself (a GET with
 * the password in the address), and what was typed would be replaced by the form's defaults when React
 * takes the fields over. `className` lays out the fields (on the fieldset that holds them).
 */
export function HydratedForm({ className, children, ...props }: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className={`min-w-0 ${className ?? ''}`}>
        {children}
      </fieldset>
    </form>
  );
}
