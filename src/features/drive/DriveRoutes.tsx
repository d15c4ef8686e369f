import { PlaceholderPage } from '../../app/pages/PlaceholderPage';

// Loaded on demand as its own chunk (/drive/*). The drive screens replace this.
export default function DriveRoutes() {
  return <PlaceholderPage name="Drive" />;
}
