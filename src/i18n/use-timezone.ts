import { useBootstrap } from '../features/bootstrap/store';
import { resolveTimezone } from './timezone';

/** The timezone dates are shown in (spec §9 rule). */
export function useTimezone(): string {
  const { user, settings } = useBootstrap();
  return resolveTimezone(user?.timezone, settings.dates.default_timezone);
}
