import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * A browser-like client over `app.inject()`: it keeps cookies between calls
 * and, like the real app, echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  xsrf = true;
  bearer: string | null = null;
  /** The client's address as the server sees it (throttles count per address). */
  remoteAddress: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  async request(method: Method, url: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    if (this.xsrf && method !== 'GET' && method !== 'HEAD' && !this.cookies.has('XSRF-TOKEN')) {
      // A browser always has the cookie from its first page load.
      await this.request('GET', '/api/v1/health');
    }
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (this.xsrf && this.cookies.has('XSRF-TOKEN')) headers['x-xsrf-token'] = this.cookies.get('XSRF-TOKEN')!;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const injectOptions: InjectOptions = { method, url, headers, ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}) };
    if (options.body !== undefined) injectOptions.payload = options.body as InjectOptions['payload'];
    const response = await this.app.inject(injectOptions);
    this.store(response);
    return response;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, { headers });
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, { body, headers });

  async login(email: string, password: string, remember = true) {
    const response = await this.post('/auth/login', { email, password, remember });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    return response;
  }

  private store(response: LightMyRequestResponse) {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }
}
