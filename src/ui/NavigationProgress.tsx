import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';
import { translate } from '../i18n/i18n';

/** Spec §9: a loading indicator appears only after 500 ms, so quick loads do not flash it. */
export const LOADING_INDICATOR_DELAY_MS = 500;

/**
 * A slim bar at the top while the router loads the next screen's code (the
 * drive, admin, account and auth screens are separate chunks), instead of the
 * previous screen standing still with no sign of progress.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  // Each navigation is its own wait: the timer marks the one it was started for as slow.
  const pending = navigation.state === 'idle' ? null : (navigation.location?.key ?? 'pending');
  const [slow, setSlow] = useState<string | null>(null);
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => setSlow(pending), LOADING_INDICATOR_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [pending]);
  if (!pending || slow !== pending) return null;
  return (
    <div role="progressbar" aria-label={translate('Loading...')} aria-busy="true" className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-primary/20">
      <div className="h-full w-1/3 animate-pulse bg-primary" />
    </div>
  );
}
