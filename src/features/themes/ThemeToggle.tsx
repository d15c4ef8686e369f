import { useTrans } from '../../i18n/use-trans';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { useActiveTheme } from './use-theme';

/** Hidden unless settings.themes.user_change lets users pick. */
export function ThemeToggle() {
  const { t } = useTrans();
  const { active, canToggle, toggle } = useActiveTheme();
  if (!canToggle) return null;
  const isDark = !!active?.is_dark;
  return (
    <IconButton label={isDark ? t('Light mode') : t('Dark mode')} onPress={toggle}>
      <Icon name={isDark ? 'sun' : 'moon'} />
    </IconButton>
  );
}
