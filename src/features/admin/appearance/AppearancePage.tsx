import { useState } from 'react';
import type { Theme } from '../../../api/bootstrap-types';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { TextField } from '../../../ui/form/TextField';
import { toast } from '../../../ui/toast/toast-store';
import { ColorInput } from '../themes/ThemesPage';
import { useAppearance, useSaveAppearance, useSaveTheme, useThemes, type AppearanceValues } from '../appearance-api';
import { BrandingImageField } from './BrandingImageField';
import type { BridgeMessage } from '../../appearance/bridge';
import { usePreview } from './use-preview';

const LOGOS = ['branding.logo_light', 'branding.logo_dark', 'branding.logo_light_mobile', 'branding.logo_dark_mobile', 'branding.favicon'] as const;
const LOGO_LABELS: Record<(typeof LOGOS)[number], string> = {
  'branding.logo_light': 'Light logo',
  'branding.logo_dark': 'Dark logo',
  'branding.logo_light_mobile': 'Light logo (mobile)',
  'branding.logo_dark_mobile': 'Dark logo (mobile)',
  'branding.favicon': 'Favicon',
};

/** The settings the preview follows, as the editor's values have them. */
function settingsMessage(values: AppearanceValues): BridgeMessage {
  return {
    type: 'setValues',
    values: {
      settings: {
        themes: { user_change: values['themes.user_change'], default_id: values['themes.default_id'] },
        branding: Object.fromEntries(
          Object.entries(values)
            .filter(([k]) => k.startsWith('branding.'))
            .map(([k, v]) => [k.slice(9), v]),
        ),
      },
    },
  };
}

/**
 * The appearance editor (/admin/appearance): settings on the side, the app in
 * a frame. Every change is posted to the frame at once, so the preview
 * updates before anything is saved; Save stores it, Cancel drops it.
 */
export function AppearancePage() {
  const saved = useAppearance();
  const themes = useThemes();
  // A fresh editor for each saved state (by content, so a mere refetch keeps the drafts): after Save they start from what was stored.
  return saved.data && themes.data ? (
    <Editor key={JSON.stringify([saved.data, themes.data.themes])} saved={saved.data} themes={themes.data.themes} variables={themes.data.variables} />
  ) : null;
}

function Editor({ saved, themes, variables }: { saved: AppearanceValues; themes: Theme[]; variables: string[] }) {
  const { t } = useTrans();
  const saveAppearance = useSaveAppearance();
  const saveTheme = useSaveTheme();
  const [values, setValues] = useState(saved);
  const [themeDrafts, setThemeDrafts] = useState<Theme[]>(themes);
  const [themeId, setThemeId] = useState<number>(saved['themes.default_id'] ?? themes.find((th) => th.default_light)?.id ?? themes[0]?.id ?? 0);
  // The framed app listens: it gets the drafts again (a change made in its first moments reached no listener).
  const { frame, post } = usePreview((send) => {
    send(settingsMessage(values));
    send({ type: 'setCustomCode', mode: 'css', value: values['custom_code.css'] ? String(values['custom_code.css']) : null });
    send({ type: 'setCustomCode', mode: 'html', value: values['custom_code.html'] ? String(values['custom_code.html']) : null });
    send({ type: 'setValues', values: { themes: themeDrafts } });
    send({ type: 'setActiveTheme', themeId });
  });
  const [path, setPath] = useState('/drive');
  const [frameKey, setFrameKey] = useState(0);
  const edited = themeDrafts.find((th) => th.id === themeId);

  const set = <K extends keyof AppearanceValues>(key: K, value: AppearanceValues[K]) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (key === 'custom_code.css') post({ type: 'setCustomCode', mode: 'css', value: String(value) });
    else if (key === 'custom_code.html') post({ type: 'setCustomCode', mode: 'html', value: String(value) });
    else post(settingsMessage(next));
  };

  const chooseTheme = (id: number) => {
    setThemeId(id);
    post({ type: 'setValues', values: { themes: themeDrafts } });
    post({ type: 'setActiveTheme', themeId: id });
  };

  const setColor = (variable: string, triplet: string) => {
    const next = themeDrafts.map((th) => (th.id === themeId ? { ...th, colors: { ...th.colors, [variable]: triplet } } : th));
    setThemeDrafts(next);
    // The list first (the app re-applies its active theme from it), then the edited theme is shown with the new colour.
    post({ type: 'setValues', values: { themes: next } });
    post({ type: 'setActiveTheme', themeId });
    post({ type: 'setThemeColor', name: variable, value: triplet });
  };

  const handleSave = async () => {
    const changed = Object.fromEntries(Object.entries(values).filter(([key, value]) => saved[key as keyof AppearanceValues] !== value));
    try {
      if (Object.keys(changed).length) await saveAppearance.mutateAsync(changed);
      for (const draft of themeDrafts) {
        const original = themes.find((th) => th.id === draft.id);
        if (original && JSON.stringify(original.colors) !== JSON.stringify(draft.colors)) {
          await saveTheme.mutateAsync({ id: draft.id, body: { name: draft.name, is_dark: draft.is_dark, colors: draft.colors } });
        }
      }
      toast(t('Saved appearance'));
    } catch (error) {
      toast.danger(getErrorMessage(error));
    }
  };

  const handleCancel = () => {
    setValues(saved);
    setThemeDrafts(themes);
    // A fresh frame shows the site exactly as saved.
    setFrameKey((k) => k + 1);
  };

  const error = (field: string) => getFieldError(saveAppearance.error, field);
  return (
    <div className="-m-4 flex h-[calc(100dvh-4rem)] flex-col md:-m-6 md:h-dvh md:flex-row">
      <aside className="flex w-full flex-col gap-3 overflow-y-auto border-divider p-4 md:w-80 md:border-r" aria-label={t('Appearance')}>
        <h1 className="text-xl font-semibold">{t('Appearance')}</h1>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            post({ type: 'navigate', to: path.startsWith('/') ? path : `/${path}` });
          }}
        >
          <TextField label={t('Preview page')} value={path} onChange={(e) => setPath(e.target.value)} className="flex-1" />
          <button type="submit" className={secondaryButtonClass}>
            {t('Go')}
          </button>
        </form>

        <h2 className="mt-2 font-medium">{t('Branding')}</h2>
        <TextField
          label={t('Site name')}
          value={values['branding.site_name']}
          onChange={(e) => set('branding.site_name', e.target.value)}
          error={error('branding.site_name')}
        />
        {LOGOS.map((key) => (
          <BrandingImageField key={key} label={t(LOGO_LABELS[key])} value={values[key]} error={error(key)} onChange={(url) => set(key, url)} />
        ))}

        <h2 className="mt-2 font-medium">{t('Themes')}</h2>
        <label className="inline-flex items-center gap-1 text-sm">
          <input type="checkbox" checked={values['themes.user_change']} onChange={(e) => set('themes.user_change', e.target.checked)} />
          {t('Users may switch between light and dark')}
        </label>
        <label className="text-sm">
          {t('Default theme')}
          <select
            className={inputClass}
            value={values['themes.default_id'] ?? ''}
            onChange={(e) => {
              const id = e.target.value ? Number(e.target.value) : null;
              set('themes.default_id', id);
              if (id) chooseTheme(id);
            }}
          >
            <option value="">{t('The default light theme')}</option>
            {themeDrafts.map((th) => (
              <option key={th.id} value={th.id}>
                {th.name}
              </option>
            ))}
          </select>
        </label>
        {error('themes.default_id') && <p className="text-sm text-danger">{t(error('themes.default_id')!)}</p>}
        <label className="text-sm">
          {t('Edit colours of')}
          <select className={inputClass} value={themeId} onChange={(e) => chooseTheme(Number(e.target.value))}>
            {themeDrafts.map((th) => (
              <option key={th.id} value={th.id}>
                {th.name}
              </option>
            ))}
          </select>
        </label>
        {edited && (
          <div className="grid grid-cols-1 gap-1">
            {variables.map((variable) => (
              <ColorInput key={variable} variable={variable} value={edited.colors[variable]} onChange={(value) => setColor(variable, value)} />
            ))}
          </div>
        )}

        <h2 className="mt-2 font-medium">{t('Custom code')}</h2>
        <p className="text-xs text-fg-muted">
          {t('Custom CSS and HTML are added to every page exactly as written. They are not sanitised: only paste code you trust.')}
        </p>
        <label className="text-sm">
          {t('Custom CSS')}
          <textarea className={`${inputClass} font-mono`} rows={4} value={values['custom_code.css']} onChange={(e) => set('custom_code.css', e.target.value)} />
        </label>
        <label className="text-sm">
          {t('Custom HTML')}
          <textarea
            className={`${inputClass} font-mono`}
            rows={4}
            value={values['custom_code.html']}
            onChange={(e) => set('custom_code.html', e.target.value)}
          />
        </label>

        <div className="sticky bottom-0 mt-auto flex justify-end gap-2 bg-bg pt-2">
          <button type="button" className={secondaryButtonClass} onClick={handleCancel}>
            {t('Cancel')}
          </button>
          <button type="button" className={primaryButtonClass} disabled={saveAppearance.isPending || saveTheme.isPending} onClick={() => void handleSave()}>
            {t('Save')}
          </button>
        </div>
      </aside>
      <iframe key={frameKey} ref={frame} title={t('Preview')} src="/drive" className="min-h-[60vh] flex-1 border-0 bg-paper" />
    </div>
  );
}
