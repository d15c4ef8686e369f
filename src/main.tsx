import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from './api/query-client';
import { Providers } from './app/Providers';
import { router } from './app/router';
import { registerServiceWorker } from './offline/sw-registration';
import { startErrorReporting } from './observability/errors';
import './index.css';

const queryClient = createQueryClient();
startErrorReporting(queryClient);
const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);

registerServiceWorker();
