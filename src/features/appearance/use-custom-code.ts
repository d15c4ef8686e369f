import { useEffect } from 'react';
import { useBootstrap } from '../bootstrap/store';
import { setCustomCode } from './bridge';

/** The admin's saved custom CSS and HTML, on every page (settings.custom_code). */
export function useCustomCode(): void {
  const { settings } = useBootstrap();
  // Optional: bootstrap data persisted by an older release has no custom_code.
  const css = settings.custom_code?.css ?? '';
  const html = settings.custom_code?.html ?? '';
  useEffect(() => setCustomCode(document, 'css', css), [css]);
  useEffect(() => setCustomCode(document, 'html', html), [html]);
}
