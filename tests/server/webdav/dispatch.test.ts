import { describe, expect, it } from 'vitest';
import { appWithOwner } from '../support/app-with-owner.js';
import { servicesOf } from '../support/services-handle.js';

const METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'];

/** The method → handler table: what OPTIONS offers is what is handled, and nothing else is. */
describe('WebDAV dispatch', () => {
  const site = appWithOwner();
  const call = async (method: string, url = '/dav/My%20drive/') => {
    const token = (await servicesOf(site.app).auth.accessTokens.create(site.owner.user.id, 'webdav', null, ['read', 'write'])).token;
    const authorization = `Basic ${Buffer.from(`someone:${token}`).toString('base64')}`;
    return site.app.inject({ method: method as 'GET', url, headers: { authorization, depth: '0' } });
  };

  it('offers every method it handles in Allow, with DAV classes 1 and 2', async () => {
    const options = await call('OPTIONS');
    expect(options.statusCode).toBe(200);
    expect(options.headers.dav).toBe('1, 2');
    expect(String(options.headers.allow).split(', ')).toEqual(METHODS);
  });

  it('hands each offered method to a handler (none answers 405)', async () => {
    for (const method of METHODS) expect((await call(method, `/dav/My%20drive/nothing-${method}`)).statusCode, method).not.toBe(405);
  });

  it('sets no cookie on its answers (a WebDAV client signs in with Basic and keeps none)', async () => {
    for (const method of ['OPTIONS', 'PROPFIND', 'GET']) {
      const response = await call(method, method === 'GET' ? '/dav/My%20drive/nothing' : '/dav/My%20drive/');
      expect(response.headers['set-cookie'], method).toBeUndefined();
    }
    // The app's own pages still get their XSRF cookie.
    expect(String((await site.app.inject({ url: '/api/v1/health' })).headers['set-cookie'])).toContain('XSRF-TOKEN');
  });
});
