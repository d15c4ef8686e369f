import { PlaceholderPage } from '../../app/pages/PlaceholderPage';

// Loaded on demand as its own chunk (/admin/*). The admin area replaces this.
export default function AdminRoutes() {
  return <PlaceholderPage name="Admin" />;
}
