import { useState } from 'react';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { selectClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useAdminSettings, useSaveSettings, useTestMail, type SettingsBody } from './api';
import { LinkFields, PolicyList, type LinkValue, type PolicyValue } from './LinkFields';
import { groupLabels, settingLabels } from './setting-labels';
import { useAdminSave } from './use-admin-save';

const MB = 1024 * 1024;
/** Sizes shown in MB (the API speaks bytes). */
const inMegabytes = new Set(['uploads.max_size', 'uploads.chunk_size', 'uploads.available_space']);
const lists = new Set(['uploads.allowed_extensions', 'uploads.blocked_extensions', 'observability.metrics_allow']);
/** Numbers from 0 to 1 where empty means "the environment's value". */
const rates = new Set(['observability.sample_rate', 'observability.traces_sample_rate']);
/** Whole numbers (days): typed as numbers, sent as numbers. */
const counts = new Set(['trash.keep_days', 'versions.max_days', 'activity.keep_days']);
/** Settings with a fixed set of values: a select, not free text. */
const choices: Record<string, string[]> = { 'cookie_notice.position': ['top', 'bottom'] };

type DraftValue = string | boolean | LinkValue | PolicyValue[];
type Draft = Record<string, DraftValue>;

const isLink = (value: unknown): value is LinkValue =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'label' in value && 'action' in value;
const asPolicies = (value: unknown): PolicyValue[] =>
  Array.isArray(value) ? value.filter(isLink).map((p, index) => ({ ...p, id: (p as Partial<PolicyValue>).id || `policy-${index + 1}` })) : [];

/** Settings by group; each saves at once and takes effect without a restart. Secrets are write-only. */
export function SettingsPage() {
  const { t } = useTrans();
  const settings = useAdminSettings();
  const [group, setGroup] = useState('general');
  if (!settings.data) return null;
  const groups = Object.keys(settings.data.groups);
  return (
    <section>
      <h1 className="mb-4 text-xl font-semibold">{t('Settings')}</h1>
      <div role="tablist" aria-label={t('Settings')} className="mb-4 flex flex-wrap gap-2">
        {groups.map((g) => (
          <button
            key={g}
            role="tab"
            type="button"
            aria-selected={g === group}
            className={g === group ? primaryButtonClass : secondaryButtonClass}
            onClick={() => setGroup(g)}
          >
            {t(groupLabels[g] ?? g)}
          </button>
        ))}
      </div>
      <GroupForm
        key={group}
        group={group}
        keys={settings.data.groups[group] ?? []}
        values={settings.data.settings}
        secrets={settings.data.secrets}
        mailConfigured={settings.data.mail.configured}
      />
    </section>
  );
}

function toDraft(key: string, value: unknown): DraftValue {
  if (typeof value === 'boolean') return value;
  if (key === 'registration.policies') return asPolicies(value);
  if (key === 'cookie_notice.button') return isLink(value) ? { ...value } : { label: '', action: '', type: 'link' };
  if (inMegabytes.has(key)) return value === null || value === undefined ? '' : String(Number(value) / MB);
  if (lists.has(key)) return Array.isArray(value) ? value.join(', ') : '';
  return value === null || value === undefined ? '' : String(value);
}

function fromDraft(key: string, draft: DraftValue): unknown {
  if (typeof draft !== 'string') return draft;
  if (inMegabytes.has(key)) return draft.trim() === '' ? null : Math.round(Number(draft) * MB);
  if (rates.has(key)) return draft.trim() === '' ? null : Number(draft);
  if (counts.has(key)) return Number(draft);
  if (lists.has(key))
    return draft
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return draft;
}

function GroupForm({
  group,
  keys,
  values,
  secrets,
  mailConfigured,
}: {
  group: string;
  keys: string[];
  values: Record<string, unknown>;
  secrets: Record<string, boolean>;
  mailConfigured: boolean;
}) {
  const { t } = useTrans();
  const [secretDraft, setSecretDraft] = useState<Record<string, string>>({});
  const save = useAdminSave(useSaveSettings(), { done: t('Saved settings'), onSaved: () => setSecretDraft({}) });
  const testMail = useTestMail();
  const [draft, setDraft] = useState<Draft>(() => Object.fromEntries(keys.filter((k) => !(k in secrets)).map((k) => [k, toDraft(k, values[k])])));

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(draft)) body[key] = fromDraft(key, value);
    // A secret left empty stays as it is: it is never sent back to be shown.
    for (const [key, value] of Object.entries(secretDraft)) if (value !== '') body[key] = value;
    save.submit(body as SettingsBody);
  };

  return (
    <form onSubmit={handleSubmit} className="flex max-w-2xl flex-col gap-4">
      {keys.map((key) => {
        const label = t(settingLabels[key] ?? key);
        const error = save.error(key);
        if (key in secrets) {
          return (
            <TextField
              key={key}
              label={label}
              type="password"
              autoComplete="off"
              placeholder={secrets[key] ? '••••••••' : t('Not set')}
              description={secrets[key] ? t('Set. Type a new value to replace it.') : undefined}
              value={secretDraft[key] ?? ''}
              onChange={(e) => setSecretDraft((d) => ({ ...d, [key]: e.target.value }))}
              error={error}
            />
          );
        }
        const value = draft[key];
        if (typeof value === 'boolean') {
          return (
            <div key={key}>
              <label className="inline-flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" checked={value} onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.checked }))} />
                {label}
              </label>
              {error && <p className="text-sm text-danger">{error}</p>}
            </div>
          );
        }
        if (Array.isArray(value)) {
          return (
            <PolicyList
              key={key}
              legend={label}
              value={value}
              onChange={(next) => setDraft((d) => ({ ...d, [key]: next }))}
              errorFor={(index, field) => save.error(`${key}.${index}.${field}`)}
            />
          );
        }
        if (isLink(value)) {
          return (
            <LinkFields
              key={key}
              legend={label}
              value={value}
              onChange={(next) => setDraft((d) => ({ ...d, [key]: next }))}
              errorFor={(field) => save.error(`${key}.${field}`)}
            />
          );
        }
        const options = choices[key];
        if (options) {
          return (
            <label key={key} className="text-sm font-medium">
              {label}
              <select className={`${selectClass} mt-1`} value={value ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}>
                {options.map((o) => (
                  <option key={o} value={o}>
                    {t(o)}
                  </option>
                ))}
              </select>
              {error && <span className="text-sm text-danger">{error}</span>}
            </label>
          );
        }
        return (
          <TextField
            key={key}
            label={label}
            type={inMegabytes.has(key) || counts.has(key) ? 'number' : 'text'}
            value={value ?? ''}
            onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
            error={error}
          />
        );
      })}
      <div className="flex gap-2">
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          {t('Save')}
        </button>
        {group === 'mail' && (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={testMail.isPending}
            onClick={() => testMail.mutate(undefined, { onSuccess: () => toast(t('Email sent')), onError: (e) => toast.danger(getErrorMessage(e)) })}
          >
            {t('Send test mail')}
          </button>
        )}
      </div>
      {group === 'mail' && !mailConfigured && (
        <p className="text-sm text-fg-muted">{t('Mail is not configured: messages are written to files on the server.')}</p>
      )}
    </form>
  );
}
