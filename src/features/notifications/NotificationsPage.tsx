import { Link } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { useBootstrap } from '../bootstrap/store';
import { NotificationList } from './components/NotificationList';

/** Spec §2 "Notifications page". */
export function NotificationsPage() {
  const { t } = useTrans();
  const data = useBootstrap();
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-semibold">{t('Notifications')}</h1>
        {data.notifications.subscriptions.integrated && (
          <Link to="/notifications/settings" className="text-sm text-primary hover:underline">
            {t('Notification preferences')}
          </Link>
        )}
      </div>
      <NotificationList />
    </section>
  );
}
