/** The server's answer to GET /api/v1/observability/client (the page and the worker read it). */
export interface ClientObservability {
  dsn: string | null;
  tunnel: string;
  release: string;
  environment: string;
  sampleRate: number;
  tracesSampleRate: number;
  tracing: boolean;
}

export const CLIENT_CONFIG_PATH = '/api/v1/observability/client';

/** Null when the server cannot be asked (offline): reporting simply stays off for this start. */
export async function fetchClientObservability(fetcher: typeof fetch = fetch): Promise<ClientObservability | null> {
  try {
    const response = await fetcher(CLIENT_CONFIG_PATH, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    return response.ok ? ((await response.json()) as ClientObservability) : null;
  } catch {
    return null;
  }
}
