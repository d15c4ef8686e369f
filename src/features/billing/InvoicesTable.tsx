import { useTrans } from '../../i18n/use-trans';
import { formatAmount } from '../pricing/plans';
import { useInvoices } from './api';

/** The user's invoices from Stripe, with links to Stripe's invoice page and PDF. */
export function InvoicesTable() {
  const { t, language } = useTrans();
  const invoices = useInvoices();
  const rows = invoices.data?.data ?? [];
  return (
    <div className="rounded-2xl border border-divider p-6">
      <h2 className="mb-3 text-lg font-semibold">{t('Invoices')}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-fg-muted">{invoices.isPending ? t('Loading...') : t('No invoices yet')}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <tbody>
            {rows.map((invoice) => (
              <tr key={invoice.id} className="border-t border-divider">
                <td className="py-2">{new Date(invoice.created_at).toLocaleDateString(language, { dateStyle: 'medium' })}</td>
                <td className="py-2">{invoice.number}</td>
                <td className="py-2">{formatAmount(invoice.amount, invoice.currency, language)}</td>
                <td className="py-2">{t(invoice.status === 'paid' ? 'Paid' : 'Due')}</td>
                <td className="py-2 text-right">
                  {invoice.url && (
                    <a href={invoice.url} target="_blank" rel="noopener noreferrer" className="text-primary hover:underline">
                      {t('Open')}
                    </a>
                  )}{' '}
                  {invoice.pdf && (
                    <a href={invoice.pdf} target="_blank" rel="noopener noreferrer" className="text-primary hover:underline">
                      PDF
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
