import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { Pager } from '../../../src/features/admin/Pager';
import { makeBootstrap } from '../fixtures';

/** Issue 32.8: "1 results" in the admin users list. */
describe('the admin pager', () => {
  it('counts one result in the singular and more in the plural', () => {
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap());
    const { rerender } = render(
      <QueryClientProvider client={client}>
        <Pager page={1} lastPage={1} total={1} onPage={() => undefined} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('1 result')).toBeTruthy();
    rerender(
      <QueryClientProvider client={client}>
        <Pager page={1} lastPage={1} total={3} onPage={() => undefined} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('3 results')).toBeTruthy();
  });
});
