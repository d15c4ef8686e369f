import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/api/http';
import { fetchBootstrap } from '../../src/features/bootstrap/store';

describe('bootstrap data written into the page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is read from the page once, without a request, then from the server', async () => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = 'bootstrap-data';
    script.textContent = JSON.stringify({ data: { user: null, app_version: 'inline' } });
    document.head.append(script);
    const get = vi.spyOn(api, 'get').mockResolvedValue({ data: { user: null, app_version: 'server' } } as never);

    expect((await fetchBootstrap()).app_version).toBe('inline');
    expect(get).not.toHaveBeenCalled();
    expect(document.getElementById('bootstrap-data')).toBeNull();

    expect((await fetchBootstrap()).app_version).toBe('server');
    expect(get).toHaveBeenCalledTimes(1);
  });
});
