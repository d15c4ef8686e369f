import { Link } from 'react-router-dom';
import { useIsMobile } from '../../ui/use-media-query';
import { useActiveTheme } from '../themes/use-theme';
import { useBootstrap } from '../bootstrap/store';

/** The branding logo for the current light/dark theme, or the site name. */
export function Logo({ to = '/drive', className = '' }: { to?: string; className?: string }) {
  const { branding } = useBootstrap();
  const { active } = useActiveTheme();
  const isMobile = useIsMobile();
  const light = (isMobile && branding.logo_light_mobile) || branding.logo_light;
  const dark = (isMobile && branding.logo_dark_mobile) || branding.logo_dark;
  const src = active?.is_dark ? dark || light : light || dark;
  return (
    <Link to={to} className={`inline-flex items-center gap-2 rounded focus-visible:outline-2 focus-visible:outline-primary ${className}`}>
      {/* 20px bold is large text to WCAG (3:1); at 18px the default primary on the navbar's grey was 4.2:1 of the 4.5 it needed. Same line height. */}
      {src ? <img src={src} alt={branding.site_name} className="h-8 w-auto" /> : <span className="text-xl font-bold text-primary">{branding.site_name}</span>}
    </Link>
  );
}
