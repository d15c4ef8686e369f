import { useTrans } from '../../i18n/use-trans';

/** Stands in for a screen another issue builds; named so nobody mistakes it. */
export function PlaceholderPage({ name }: { name: string }) {
  const { t } = useTrans();
  return (
    <section className="mx-auto max-w-3xl px-4 py-16" data-placeholder={name}>
      <h1 className="text-2xl font-semibold">{t(name)}</h1>
      <p className="mt-2 text-fg-muted">{t(':name (placeholder): this screen is not built yet.', { name: t(name) })}</p>
    </section>
  );
}
