import { useTrans } from '../../../i18n/use-trans';
import type { Line } from '../appearance-api';

/**
 * One line in the editor: the English source beside this language's text.
 * A line with no text in this language is marked, so translators find the gaps.
 */
export function LineRow({ line, draft, onChange }: { line: Line; draft: string | undefined; onChange: (value: string) => void }) {
  const { t } = useTrans();
  const value = draft ?? line.value ?? '';
  const untranslated = !value;
  return (
    <tr className="border-b border-divider align-top" data-untranslated={untranslated || undefined}>
      <td className="w-1/2 p-2">
        <span className="whitespace-pre-wrap">{line.source}</span>
        {untranslated && (
          <span className="ml-2 rounded bg-warning/15 px-1 text-xs text-warning" role="status">
            {t('Untranslated')}
          </span>
        )}
        {line.overridden && draft === undefined && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Edited')}</span>}
      </td>
      <td className="w-1/2 p-2">
        <textarea
          aria-label={t('Translation of :line', { line: line.source })}
          rows={Math.min(4, Math.max(1, Math.ceil(value.length / 60)))}
          className="block w-full rounded border border-divider bg-paper px-2 py-1 text-fg outline-none focus:border-primary"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </td>
    </tr>
  );
}
