import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { translate } from '../../i18n/i18n';

/** Last-resort boundary: a failed lazy chunk or a render error. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">{translate('There was an issue. Please try again.')}</h1>
      {detail && <p className="text-fg-muted">{detail}</p>}
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded bg-primary px-5 py-2 font-semibold text-on-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        {translate('Reload')}
      </button>
    </main>
  );
}
