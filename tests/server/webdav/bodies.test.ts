import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_XML_BYTES } from '../../../server/modules/webdav/routes.js';
import { XML_MAX_DEPTH } from '../../../server/lib/xml.js';
import { DAV_XML_LIMITS } from '../../../server/modules/webdav/xml.js';
import { listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

type Headers = Record<string, string>;

const basic = (token: string): Headers => ({ authorization: `Basic ${Buffer.from(`someone:${token}`).toString('base64')}` });

const dav = (app: FastifyInstance, method: string, url: string, headers: Headers, body?: string) =>
  app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body } : {}) });

/** A PROPFIND body whose elements are nested `depth` deep in all (propfind and prop included). */
const nestedPropfind = (depth: number) =>
  `<D:propfind xmlns:D="DAV:"><D:prop>${'<X:a xmlns:X="urn:x">'.repeat(depth - 2)}${'</X:a>'.repeat(depth - 2)}</D:prop></D:propfind>`;

/** A body of exactly `bytes` bytes: a valid start, padded with white space inside the root. */
const paddedTo = (start: string, end: string, bytes: number) => `${start}${' '.repeat(bytes - start.length - end.length)}${end}`;

/** Sends a request over a real socket; resolves with the answer and whether the server closed the connection after it. */
function overSocket(url: string, method: string, headers: Headers, write: (request: http.ClientRequest) => void) {
  return new Promise<{ status: number; connection: string | undefined; closed: boolean }>((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        const socket = request.socket!;
        const answer = { status: response.statusCode!, connection: response.headers.connection };
        if (socket.destroyed) resolve({ ...answer, closed: true });
        else socket.once('close', () => resolve({ ...answer, closed: true }));
      });
    });
    write(request);
  });
}

/**
 * WebDAV request bodies (issue 30 findings 1, 10 and 11): XML parsed in one
 * pass under a depth and an element limit, bodies over the cap refused with
 * 413 without hanging the connection, and a COPY or MOVE to another server
 * refused with 502 instead of being made here.
 */
describe('WebDAV request bodies and destinations', () => {
  let t: TestApp;
  let url: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { user } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'a.txt', content: 'hello' });
    token = (await servicesOf(t.app).auth.accessTokens.create(user.id, 'webdav', null, ['read', 'write'])).token;
  });
  afterAll(() => t.close());

  it('reads a body nested to the depth limit, and refuses one level deeper (and 3,000 deep) with 400', async () => {
    const propfind = (body: string) => dav(t.app, 'PROPFIND', '/dav/My%20drive/', { depth: '0', ...basic(token) }, body);
    expect((await propfind(nestedPropfind(XML_MAX_DEPTH))).statusCode).toBe(207);
    expect((await propfind(nestedPropfind(XML_MAX_DEPTH + 1))).statusCode).toBe(400);
    expect((await propfind(nestedPropfind(3000))).statusCode).toBe(400);
  });

  it('refuses a body of more elements than the limit with 413, and reads one at the limit', async () => {
    const props = (count: number) => `<D:propfind xmlns:D="DAV:"><D:prop>${'<X:p xmlns:X="urn:x"/>'.repeat(count - 2)}</D:prop></D:propfind>`;
    const propfind = (body: string) => dav(t.app, 'PROPFIND', '/dav/My%20drive/a.txt', { depth: '0', ...basic(token) }, body);
    expect((await propfind(props(DAV_XML_LIMITS.elements))).statusCode).toBe(207);
    expect((await propfind(props(DAV_XML_LIMITS.elements + 1))).statusCode).toBe(413);
  });

  it('answers 400 to what is not well-formed or namespace-well-formed, and to a DTD', async () => {
    const propfind = (body: string) => dav(t.app, 'PROPFIND', '/dav/My%20drive/', { depth: '0', ...basic(token) }, body);
    for (const body of [
      '<D:propfind xmlns:D="DAV:"><D:prop></D:propfind>',
      '<D:propfind><D:allprop/></D:propfind>',
      '<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind><more/>',
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "x">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>',
    ])
      expect((await propfind(body)).statusCode, body).toBe(400);
    expect((await propfind('  \n')).statusCode).toBe(207);
  });

  it('keeps a dead property as written: its namespaces, attributes, children, text and CDATA', async () => {
    const value = '<Z:note xmlns:Z="urn:z" Z:lang="en"><Z:b>bold</Z:b> &amp; <![CDATA[<raw>]]><i xmlns="urn:plain">x</i></Z:note>';
    const patch = await dav(
      t.app,
      'PROPPATCH',
      '/dav/My%20drive/a.txt',
      basic(token),
      `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${value}</D:prop></D:set></D:propertyupdate>`,
    );
    expect(patch.statusCode).toBe(207);
    const found = await dav(
      t.app,
      'PROPFIND',
      '/dav/My%20drive/a.txt',
      { depth: '0', ...basic(token) },
      '<D:propfind xmlns:D="DAV:"><D:prop><note xmlns="urn:z"/></D:prop></D:propfind>',
    );
    expect(found.body).toContain('<Z:note xmlns:Z="urn:z" xmlns:D="DAV:" Z:lang="en"><Z:b>bold</Z:b> &amp; &lt;raw&gt;<i xmlns="urn:plain">x</i></Z:note>');
  });

  it('answers 413 to a PROPFIND, PROPPATCH or LOCK body over 1 MiB, and closes the connection', async () => {
    const bodies: [string, string, string, string][] = [
      ['PROPFIND', '/dav/My%20drive/', '<D:propfind xmlns:D="DAV:"><D:allprop/>', '</D:propfind>'],
      ['PROPPATCH', '/dav/My%20drive/a.txt', '<D:propertyupdate xmlns:D="DAV:">', '</D:propertyupdate>'],
      [
        'LOCK',
        '/dav/My%20drive/a.txt',
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>',
        '</D:lockinfo>',
      ],
    ];
    for (const [method, path, start, end] of bodies) {
      const answer = await dav(t.app, method, path, { depth: '0', ...basic(token) }, paddedTo(start, end, MAX_XML_BYTES + 1));
      expect(answer.statusCode, method).toBe(413);
      expect(answer.headers.connection, method).toBe('close');
    }
    // At the cap it is read (the refusal above is the size, not the padding).
    const atCap = await dav(t.app, 'PROPFIND', '/dav/My%20drive/', { depth: '0', ...basic(token) }, paddedTo(bodies[0]![2], bodies[0]![3], MAX_XML_BYTES));
    expect(atCap.statusCode).toBe(207);
  });

  it('answers 413 over a real socket to a chunked body that grows past the cap, and closes rather than hang', async () => {
    const answer = await overSocket(`${url}/dav/My%20drive/`, 'PROPFIND', { depth: '0', ...basic(token) }, (request) => {
      request.write('<D:propfind xmlns:D="DAV:"><D:allprop/>');
      // Never ended: the server must answer once the cap is passed, not wait for an end that does not come.
      request.write(' '.repeat(MAX_XML_BYTES + 64 * 1024));
    });
    expect(answer).toEqual({ status: 413, connection: 'close', closed: true });
  });

  it('answers 413 at once to a declared length over the cap', async () => {
    const answer = await overSocket(
      `${url}/dav/My%20drive/`,
      'PROPFIND',
      { depth: '0', ...basic(token), 'content-length': String(MAX_XML_BYTES + 1) },
      (request) => request.write('<D:propfind xmlns:D="DAV:">'),
    );
    expect(answer).toEqual({ status: 413, connection: 'close', closed: true });
  });

  it('keeps the connection after a refused XML body: the rest is read and dropped, and the next request is answered on it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (body: string) =>
        new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
          const request = http.request(`${url}/dav/My%20drive/`, { method: 'PROPFIND', headers: { depth: '0', ...basic(token) }, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode!, reused: request.reusedSocket }));
          });
          request.on('error', reject);
          request.end(body);
        });
      expect(await send(paddedTo('<D:propfind xmlns:D="DAV:"><D:prop></D:propfind>', '', 512 * 1024))).toEqual({ status: 400, reused: false });
      expect(await send('<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>')).toEqual({ status: 207, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('refuses with 502 a COPY or MOVE whose Destination is on another server, and makes nothing here', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'source.txt', content: 'bytes' });
    const own = (await servicesOf(t.app).auth.accessTokens.create(user.id, 'webdav', null, ['read', 'write'])).token;
    for (const method of ['COPY', 'MOVE']) {
      const answer = await dav(t.app, method, '/dav/My%20drive/source.txt', {
        ...basic(own),
        destination: 'http://elsewhere.example/dav/My%20drive/copy.txt',
      });
      expect(answer.statusCode, method).toBe(502);
    }
    expect(await listNames(client, 'folderId=0')).toEqual(['source.txt']);
    // The same server named in full, or by path alone, is a copy here.
    const here = await dav(t.app, 'COPY', '/dav/My%20drive/source.txt', { ...basic(own), destination: 'http://localhost/dav/My%20drive/copy.txt' });
    expect(here.statusCode).toBe(201);
    const byPath = await dav(t.app, 'COPY', '/dav/My%20drive/source.txt', { ...basic(own), destination: '/dav/My%20drive/second.txt' });
    expect(byPath.statusCode).toBe(201);
    expect((await listNames(client, 'folderId=0')).sort()).toEqual(['copy.txt', 'second.txt', 'source.txt']);
  });
});
