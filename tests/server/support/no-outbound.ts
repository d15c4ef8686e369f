import net from 'node:net';

/**
 * Tests never reach the internet (Outline's server/test/msw.ts habit): every
 * TCP connection a server test opens must go to this machine. Peers the tests
 * run (PostgreSQL, SMTP sinks, the OAuth mock) listen on loopback; anything
 * else fails loudly instead of silently depending on the network.
 */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3}|0\.0\.0\.0|::)$/i;

export function outboundRefusal(host: string | undefined): string | null {
  if (host === undefined || host === '' || LOOPBACK.test(host.replace(/^\[|\]$/g, ''))) return null;
  return `A test tried to connect to ${host}: tests only talk to peers on this machine.`;
}

type Connect = typeof net.Socket.prototype.connect;
// Test files share a worker's modules (vitest.config.ts: isolate off), and this setup file runs
// before each of them: wrap the real connect once, not a wrapper of a wrapper per file.
const GUARDED = Symbol.for('drive.tests.no-outbound');
const prototype = net.Socket.prototype as net.Socket & { [GUARDED]?: Connect };
const connect: Connect = prototype[GUARDED] ?? net.Socket.prototype.connect;
prototype[GUARDED] = connect;

net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  // net.connect() hands the socket its arguments already normalised, as [options, callback].
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  // connect(path) / connect({ path }) are Unix sockets; connect(port, host) and connect({ host }) are TCP.
  const host =
    typeof first === 'object' && first !== null && !Array.isArray(first)
      ? 'path' in first
        ? undefined
        : ((first as { host?: string }).host ?? 'localhost')
      : typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))
        ? typeof args[1] === 'string'
          ? args[1]
          : 'localhost'
        : undefined;
  const refusal = outboundRefusal(host);
  if (refusal) throw new Error(refusal);
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as Connect;
