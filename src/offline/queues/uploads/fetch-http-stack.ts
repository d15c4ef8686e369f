import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

// tus-js-client's default stack is XMLHttpRequest, which service workers do
// not have. fetch has no upload progress, so this stack reports none while a
// chunk is in flight: progress comes from the offsets the server confirms
// after each chunk (the engine listens to onChunkComplete).
export class FetchHttpStack implements HttpStack {
  constructor(private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init)) {}

  createRequest(method: string, url: string): HttpRequest {
    return new FetchHttpRequest(method, url, this.fetchFn);
  }

  getName(): string {
    return 'FetchHttpStack';
  }
}

class FetchHttpRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {};
  private readonly controller = new AbortController();

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly fetchFn: typeof fetch,
  ) {}

  getMethod(): string {
    return this.method;
  }

  getURL(): string {
    return this.url;
  }

  setHeader(header: string, value: string): void {
    this.headers[header] = value;
  }

  getHeader(header: string): string | undefined {
    return this.headers[header];
  }

  setProgressHandler(): void {
    // No byte-level upload progress with fetch; see the class comment.
  }

  async send(body: Blob | null = null): Promise<HttpResponse> {
    const response = await this.fetchFn(this.url, {
      method: this.method,
      headers: this.headers,
      body,
      // The session cookie authenticates every tus request.
      credentials: 'include',
      signal: this.controller.signal,
    });
    // Read the body now: tus reads it synchronously (getBody) on errors.
    const text = await response.text();
    return new FetchHttpResponse(response, text);
  }

  abort(): Promise<void> {
    this.controller.abort();
    return Promise.resolve();
  }

  getUnderlyingObject(): unknown {
    return this.controller;
  }
}

class FetchHttpResponse implements HttpResponse {
  constructor(
    private readonly response: Response,
    private readonly body: string,
  ) {}

  getStatus(): number {
    return this.response.status;
  }

  getHeader(header: string): string | undefined {
    return this.response.headers.get(header) ?? undefined;
  }

  getBody(): string {
    return this.body;
  }

  getUnderlyingObject(): unknown {
    return this.response;
  }
}
