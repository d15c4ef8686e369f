import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { makeBootstrap, makeUser } from '../fixtures';

// jsdom has no CSS.escape; react-aria's modal asks for it when it opens.
(globalThis as { CSS?: { escape?: (text: string) => string } }).CSS ??= {};
(globalThis as { CSS: { escape?: (text: string) => string } }).CSS.escape ??= (text: string) => text.replace(/[^\w-]/g, (c) => `\\${c}`);

export interface SentCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: SentCall) => Response | Promise<Response> | undefined;

/**
 * One admin screen under a signed-in admin, its calls answered by `handler`
 * (by method and path, e.g. "GET /api/v1/admin/users") and recorded in order.
 */
export function renderAdmin(screen: ReactNode, handler: Handler) {
  const calls: SentCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    // PUT and DELETE travel as POST with an override (src/api/request.ts); the server and this stub read it.
    const method = request.headers.get('X-HTTP-Method-Override') ?? request.method;
    const call = { method, path: url.pathname, query: url.searchParams, body: text ? (JSON.parse(text) as unknown) : undefined };
    calls.push(call);
    return (await handler(call)) ?? Response.json({ message: 'Not found.' }, { status: 404 });
  });
  const client = createQueryClient();
  client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ permissions: [{ name: 'admin', restrictions: [] }] }) }));
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{screen}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, sent: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

export const page = <T,>(data: T[], current_page = 1, per_page = 25) => ({
  pagination: { data, current_page, per_page, total: data.length, last_page: Math.max(1, Math.ceil(data.length / per_page)) },
});
