import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { outboundRefusal } from '../support/no-outbound.js';

describe('server tests stay on this machine', () => {
  it('refuses a connection to another host before any packet leaves', () => {
    expect(() => net.connect({ host: '93.184.215.14', port: 80 })).toThrow(/tests only talk to peers on this machine/);
    expect(() => net.connect(443, 'example.com')).toThrow(/example\.com/);
  });

  it('lets loopback through', () => {
    for (const host of ['localhost', '127.0.0.1', '::1', '[::1]', '127.1.2.3']) expect(outboundRefusal(host)).toBeNull();
    const socket = net.connect({ host: '127.0.0.1', port: 9 });
    socket.on('error', () => undefined);
    socket.destroy();
  });
});
