import { Outlet } from 'react-router-dom';
import { Footer } from '../../features/navigation/Footer';
import { Navbar } from '../../features/navigation/Navbar';

/** The shell every signed-in and public screen lives in. */
export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <Navbar />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
