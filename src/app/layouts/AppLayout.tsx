import { Outlet } from 'react-router-dom';
import { Footer } from '../../features/navigation/Footer';
import { Navbar } from '../../features/navigation/Navbar';

/** The shell every signed-in and public screen lives in. */
export function AppLayout() {
  return (
    // A bottom cookie bar's height is taken off (the body's padding holds it): the footer ends above the bar, not under it.
    <div className="flex min-h-[calc(100dvh-var(--cookie-bar,0px))] flex-col bg-bg text-fg">
      <Navbar />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
