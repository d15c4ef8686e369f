import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress, pinnedLookup, safeFetch } from '../../../server/lib/safe-fetch.js';

/**
 * The local servers here sit on 127.0.0.2 and 127.0.0.3. The fetcher is told
 * to allow only 127.0.0.2 (standing in for "the internet"), so redirects to any
 * other loopback address show the check runs again on every hop.
 */
describe('safeFetch', () => {
  let publicServer: http.Server;
  let privateServer: http.Server;
  let publicPort = 0;
  let privatePort = 0;
  const allowOnly = (address: string) => address !== '127.0.0.2';

  beforeAll(async () => {
    privateServer = http.createServer((_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => privateServer.listen(0, '127.0.0.3', resolve));
    privatePort = (privateServer.address() as AddressInfo).port;
    publicServer = http.createServer((req, res) => {
      if (req.url === '/image') return res.end(Buffer.alloc(100, 1));
      if (req.url === '/huge') return res.end(Buffer.alloc(5000, 1));
      if (req.url === '/to-private') {
        res.writeHead(302, { location: `http://127.0.0.3:${privatePort}/` });
        return res.end();
      }
      if (req.url === '/to-localhost') {
        res.writeHead(302, { location: `http://localhost:${privatePort}/` });
        return res.end();
      }
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve));
    publicPort = (publicServer.address() as AddressInfo).port;
  });
  afterAll(() => {
    publicServer.close();
    privateServer.close();
  });

  const base = () => `http://127.0.0.2:${publicPort}`;

  it('fetches an allowed address', async () => {
    const result = await safeFetch(`${base()}/image`, { maxBytes: 1000, timeoutMs: 2000, isBlocked: allowOnly });
    expect(result.body.length).toBe(100);
  });

  it('refuses a redirect to a private address', async () => {
    await expect(safeFetch(`${base()}/to-private`, { maxBytes: 1000, timeoutMs: 2000, isBlocked: allowOnly })).rejects.toThrow(/private network/);
  });

  it('refuses a redirect to a name that resolves to loopback', async () => {
    await expect(safeFetch(`${base()}/to-localhost`, { maxBytes: 1000, timeoutMs: 2000, isBlocked: allowOnly })).rejects.toThrow(/private network/);
  });

  it('stops at the size cap', async () => {
    await expect(safeFetch(`${base()}/huge`, { maxBytes: 1000, timeoutMs: 2000, isBlocked: allowOnly })).rejects.toThrow(/too large/);
  });

  it('gives up after the timeout', async () => {
    await expect(safeFetch(`${base()}/slow`, { maxBytes: 1000, timeoutMs: 200, isBlocked: allowOnly })).rejects.toThrow(/too long/);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    'ff02::1',
    // Issue 10 finding 9: other spellings of loopback and private addresses in IPv6.
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:a00:1',
    '2002:7f00:1::',
    '2001::1',
    '64:ff9b::7f00:1',
    'fe80::1%eth0',
    '192.0.2.1',
    '198.18.0.1',
    'not an address',
  ])('blocks %s', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => expect(isBlockedAddress(address)).toBe(false));

  it('pins a connection to the checked addresses, whatever name it is asked for (issue 30 finding 11)', async () => {
    const lookup = pinnedLookup(['93.184.216.34', '2606:4700:4700::1111']);
    const ask = (all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        lookup('localhost', { all }, (error: Error | null, address: unknown, family?: number) =>
          error ? reject(error) : resolve(all ? address : [address, family]),
        ),
      );
    expect(await ask(true)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    expect(await ask(false)).toEqual(['93.184.216.34', 4]);
  });
});
