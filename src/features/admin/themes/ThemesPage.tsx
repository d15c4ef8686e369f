import { useState } from 'react';
import type { Theme } from '../../../api/bootstrap-types';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { CheckboxField } from '../../../ui/form/CheckboxField';
import { primaryButtonClass } from '../../../ui/form/field-classes';
import { TextField } from '../../../ui/form/TextField';
import { hexToTriplet, tripletToHex, variableLabel } from '../../themes/color';
import { useDeleteTheme, useSaveTheme, useThemes } from '../appearance-api';
import { ConfirmDelete } from '../ConfirmDelete';
import { useAdminSave } from '../use-admin-save';
import { FormButtons } from '../../../ui/form/FormButtons';

/** The site's themes: their colours, dark flag, and which are the default light and dark ones. */
export function ThemesPage() {
  const { t } = useTrans();
  const themes = useThemes();
  const remove = useDeleteTheme();
  const [editing, setEditing] = useState<Theme | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Theme | null>(null);
  return (
    <section>
      <div className="mb-4 flex items-center">
        <h1 className="mr-auto text-xl font-semibold">{t('Themes')}</h1>
        <button type="button" className={primaryButtonClass} onClick={() => setEditing('new')}>
          {t('Add theme')}
        </button>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {(themes.data?.themes ?? []).map((theme) => (
          <li key={theme.id} className="rounded border border-divider p-3">
            <div className="mb-2 flex items-center gap-2">
              <span className="mr-auto font-medium">{theme.name}</span>
              {theme.default_light && <span className="rounded bg-primary/10 px-1 text-xs text-primary">{t('Default light')}</span>}
              {theme.default_dark && <span className="rounded bg-primary/10 px-1 text-xs text-primary">{t('Default dark')}</span>}
            </div>
            <div className="mb-2 flex flex-wrap gap-1" aria-hidden>
              {Object.entries(theme.colors).map(([name, value]) => (
                <span key={name} title={name} className="h-5 w-5 rounded border border-divider" style={{ backgroundColor: `rgb(${value})` }} />
              ))}
            </div>
            <button type="button" className="mr-2 text-sm text-primary hover:underline" onClick={() => setEditing(theme)}>
              {t('Edit')}
            </button>
            {!theme.default_light && !theme.default_dark && (
              <button type="button" className="text-sm text-danger hover:underline" onClick={() => setDeleting(theme)}>
                {t('Delete')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {editing && themes.data && <ThemeDialog theme={editing === 'new' ? null : editing} variables={themes.data.variables} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDelete
          id={deleting.id}
          title={t('Delete theme')}
          body={t('Delete the theme :name?', { name: deleting.name })}
          success={t('Deleted theme')}
          mutation={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function ThemeDialog({ theme, variables, onClose }: { theme: Theme | null; variables: string[]; onClose: () => void }) {
  const { t } = useTrans();
  const save = useAdminSave(useSaveTheme(), { done: theme ? t('Updated theme') : t('Created theme'), onSaved: onClose, fields: ['name'] });
  const [name, setName] = useState(theme?.name ?? '');
  const [isDark, setDark] = useState(theme?.is_dark ?? false);
  const [defaultLight, setDefaultLight] = useState(theme?.default_light ?? false);
  const [defaultDark, setDefaultDark] = useState(theme?.default_dark ?? false);
  const [colors, setColors] = useState<Record<string, string>>(theme?.colors ?? {});

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    save.submit({ id: theme?.id ?? null, body: { name, is_dark: isDark, default_light: defaultLight, default_dark: defaultDark, colors } });
  };

  return (
    <ModalDialog title={theme ? t('Edit theme') : t('Add theme')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleSubmit} className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto">
        <TextField label={t('Name')} required value={name} onChange={(e) => setName(e.target.value)} error={save.error('name')} />
        <div className="flex flex-wrap gap-4 text-sm">
          <CheckboxField label={t('Dark theme')} checked={isDark} onChange={(e) => setDark(e.target.checked)} />
          <CheckboxField
            label={t('Default light')}
            checked={defaultLight}
            onChange={(e) => setDefaultLight(e.target.checked)}
            error={save.error('default_light')}
          />
          <CheckboxField
            label={t('Default dark')}
            checked={defaultDark}
            onChange={(e) => setDefaultDark(e.target.checked)}
            error={save.error('default_dark')}
          />
        </div>
        <div className="grid grid-cols-2 gap-2">
          {variables.map((variable) => (
            <ColorInput
              key={variable}
              variable={variable}
              value={colors[variable]}
              error={save.error(`colors.${variable}`)}
              onChange={(value) => setColors((c) => ({ ...c, [variable]: value }))}
            />
          ))}
        </div>
        <FormButtons onCancel={onClose} pending={save.isPending} />
      </form>
    </ModalDialog>
  );
}

/** One colour variable: a picker (the stored "r g b" shown as #rrggbb). */
export function ColorInput({
  variable,
  value,
  error,
  onChange,
}: {
  variable: string;
  value: string | undefined;
  error?: string | undefined;
  onChange: (triplet: string) => void;
}) {
  const { t } = useTrans();
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="color"
        aria-label={variableLabel(variable)}
        data-variable={variable}
        value={value ? tripletToHex(value) : '#000000'}
        onChange={(e) => onChange(hexToTriplet(e.target.value))}
        className="h-8 w-10 cursor-pointer rounded border border-divider bg-paper"
      />
      <span>{variableLabel(variable)}</span>
      {error && <span className="text-danger">{t(error)}</span>}
    </label>
  );
}
