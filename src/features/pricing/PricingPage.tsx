import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatBytes } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useBootstrap } from '../bootstrap/store';
import { COPYRIGHT_YEARS } from '../navigation/Footer';
import { Logo } from '../navigation/Logo';
import { useProducts } from '../billing/api';
import { BillingCycleToggle } from './BillingCycleToggle';
import { DEFAULT_CYCLE, formatAmount, listedPlans, pickPrice, planButton, type BillingCycle, type Product } from './plans';

/** The marketing links of the pricing top bar (spec §2); the site's own routes redirect to the marketing site. */
const LINKS = [
  { label: 'HOME', href: '/' },
  { label: 'OFFERINGS', href: '/offering' },
  { label: 'ABOUT US', href: '/about' },
  { label: 'FEATURES', href: '/features' },
  { label: 'PRICING & PLAN', href: '/pricing' },
  { label: 'CONTACT', href: '/contact' },
] as const;

/** Spec §2 "Pricing page": top bar, 'Choose the right plan for you', the cycle, plan cards, footer. */
export function PricingPage() {
  const { t } = useTrans();
  const [cycle, setCycle] = useState<BillingCycle>(DEFAULT_CYCLE);
  const products = useProducts();
  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <PricingTopBar />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-12">
        <h1 className="mb-8 text-center text-3xl font-bold md:text-4xl">{t('Choose the right plan for you')}</h1>
        <div className="mb-10 flex justify-center">
          <BillingCycleToggle value={cycle} onChange={setCycle} products={products.data ?? []} />
        </div>
        {products.isPending ? (
          <Spinner />
        ) : (
          <ul className="grid gap-6 md:grid-cols-3">
            {listedPlans(products.data ?? []).map((product) => (
              <li key={product.id}>
                <PlanCard product={product} cycle={cycle} />
              </li>
            ))}
          </ul>
        )}
      </main>
      <PricingFooter />
    </div>
  );
}

function PricingTopBar() {
  const { t } = useTrans();
  const { user } = useBootstrap();
  return (
    <header className="border-b border-divider">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-3">
        <Logo to="/" className="mr-auto" />
        <nav aria-label={t('Pricing')} className="order-last w-full md:order-none md:w-auto">
          <ul className="flex flex-wrap gap-4 text-sm font-semibold">
            {LINKS.map((link) => (
              <li key={link.label}>
                {link.href === '/pricing' ? (
                  <Link to={link.href} aria-current="page" className="text-primary">
                    {t(link.label)}
                  </Link>
                ) : (
                  <a href={link.href} className="hover:text-primary">
                    {t(link.label)}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </nav>
        {user ? (
          <Link to="/drive" className="rounded-full bg-primary px-4 py-1.5 text-sm font-semibold text-on-primary hover:bg-primary-dark">
            {t('My File')}
          </Link>
        ) : (
          <Link to="/login" className="rounded-full bg-primary px-4 py-1.5 text-sm font-semibold text-on-primary hover:bg-primary-dark">
            {t('Sign In')}
          </Link>
        )}
      </div>
    </header>
  );
}

export function PlanCard({ product, cycle }: { product: Product; cycle: BillingCycle }) {
  const { t, language } = useTrans();
  const { user } = useBootstrap();
  const price = pickPrice(product.prices, cycle);
  const button = planButton(product, price, user !== null);
  const buttonClass = `mt-6 block w-full rounded-full px-4 py-2 text-center font-semibold focus-visible:outline-2 focus-visible:outline-primary ${
    product.recommended ? 'bg-primary text-on-primary hover:bg-primary-dark' : 'border border-primary text-primary hover:bg-primary/10'
  }`;
  return (
    <article
      aria-labelledby={`plan-${product.id}`}
      className={`flex h-full flex-col rounded-2xl border p-6 ${product.recommended ? 'border-primary shadow-lg' : 'border-divider'}`}
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={`plan-${product.id}`} className="text-xl font-semibold">
          {t(product.name)}
        </h2>
        {/* The primary colour's own pair, as the page's buttons: primary text on a 15% tint of itself was 3.7:1 (Lighthouse, WCAG AA wants 4.5). */}
        {product.recommended && <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary">{t('Most popular')}</span>}
      </div>
      <p className="mb-4 text-sm text-fg-muted">{product.description && t(product.description)}</p>
      <p className="mb-4" data-testid="plan-price">
        {product.free || !price ? (
          <span className="text-3xl font-bold">{t('Free')}</span>
        ) : (
          <>
            <span className="text-3xl font-bold">{formatAmount(price.amount, price.currency, language)}</span>{' '}
            <span className="text-fg-muted">
              {t(price.interval === 'year' || (price.interval === 'month' && price.interval_count >= 12) ? '/ year' : '/ month')}
            </span>
          </>
        )}
      </p>
      <ul className="flex-1 space-y-2 text-sm">
        <li className="flex items-center gap-2 font-semibold">
          <Icon name="database" className="size-4 text-primary" />
          {product.available_space === null ? t('Unlimited storage') : t(':space of storage', { space: formatBytes(product.available_space) })}
        </li>
        {product.feature_list.map((feature) => (
          <li key={feature} className="flex items-center gap-2">
            <Icon name="check" className="size-4 text-primary" />
            {t(feature)}
          </li>
        ))}
      </ul>
      {button.kind === 'current' ? (
        <p className={`${buttonClass} cursor-default opacity-70`}>{t(button.label, { plan: t(button.plan) })}</p>
      ) : (
        <Link to={button.to} className={buttonClass}>
          {t(button.label)}
        </Link>
      )}
    </article>
  );
}

function PricingFooter() {
  const { t } = useTrans();
  const { branding } = useBootstrap();
  return (
    <footer className="border-t border-divider bg-fg/5">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 text-sm md:grid-cols-4">
        <section>
          <h2 className="mb-3 font-semibold">{t('Quick links')}</h2>
          <ul className="space-y-1">
            {LINKS.map((link) => (
              <li key={link.label}>
                <a href={link.href} className="hover:text-primary">
                  {t(link.label)}
                </a>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2 className="mb-3 font-semibold">{t('Services')}</h2>
          <ul className="space-y-1">
            <li>{t('Cloud storage')}</li>
            <li>{t('File sharing')}</li>
            <li>{t('Team workspaces')}</li>
          </ul>
        </section>
        <section>
          <h2 className="mb-3 font-semibold">{t('Contact us')}</h2>
          <a href="/contact" className="hover:text-primary">
            {t('CONTACT')}
          </a>
        </section>
        <section>
          <h2 className="mb-3 font-semibold">{t('Follow us')}</h2>
          <ul className="flex gap-3">
            <li>
              <a href="https://github.com" rel="noopener noreferrer" target="_blank" className="hover:text-primary">
                GitHub
              </a>
            </li>
          </ul>
        </section>
      </div>
      <p className="pb-6 text-center text-xs text-fg-muted">
        © {COPYRIGHT_YEARS} {branding.site_name}
      </p>
    </footer>
  );
}
