import net from 'node:net';
import type { AddressInfo } from 'node:net';

interface Connection {
  client: net.Socket;
  upstream: net.Socket;
  held: boolean;
}

/**
 * A TCP proxy on 127.0.0.1 (a free port) in front of the e2e server that
 * counts the bytes it passes on from the browser to the server. A page opened
 * on `origin` gets its own service worker (workers register per origin), so
 * the worker's uploads go through here too.
 *
 * `holdAfter(n)` lets n more browser→server bytes through and then passes no
 * more (the sending connection stalls, open), so a test can cut the network
 * in the middle of a chunk at a known point. `cut()` is the network going
 * away: every connection is closed and new ones are refused until `restore()`.
 * What a stalled connection held back never reaches the server.
 */
export class CountingProxy {
  /** Bytes written to the server on the browser's behalf. */
  clientToServer = 0;
  private holdAt: number | null = null;
  private refusing = false;
  private readonly connections = new Set<Connection>();

  private constructor(
    private readonly server: net.Server,
    readonly origin: string,
  ) {}

  static async start(target: { host: string; port: number }): Promise<CountingProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const proxy = new CountingProxy(server, `http://127.0.0.1:${port}`);
    server.on('connection', (client) => proxy.accept(client, target));
    return proxy;
  }

  /** Whether a connection is stalled by `holdAfter`. */
  get holding(): boolean {
    return [...this.connections].some((c) => c.held);
  }

  holdAfter(bytes: number): void {
    this.holdAt = this.clientToServer + bytes;
  }

  /** The network goes: all connections close, in flight or idle, and new ones are refused. */
  cut(): void {
    this.refusing = true;
    this.holdAt = null;
    for (const connection of this.connections) this.close(connection);
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const connection: Connection = { client, upstream, held: false };
    this.connections.add(connection);
    client.on('data', (data: Buffer) => this.forward(connection, data));
    upstream.on('drain', () => {
      if (!connection.held) client.resume();
    });
    upstream.pipe(client);
    client.on('end', () => upstream.end());
    const closed = () => this.close(connection);
    client.on('error', closed).on('close', closed);
    upstream.on('error', closed).on('close', closed);
  }

  private forward(connection: Connection, data: Buffer): void {
    if (connection.held) return;
    let passed = data;
    if (this.holdAt !== null) {
      const room = Math.max(0, this.holdAt - this.clientToServer);
      if (data.length >= room) {
        passed = data.subarray(0, room);
        connection.held = true;
        connection.client.pause();
      }
    }
    if (passed.length === 0) return;
    this.clientToServer += passed.length;
    if (!connection.upstream.write(passed) && !connection.held) connection.client.pause();
  }

  private close(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    connection.client.destroy();
    connection.upstream.destroy();
  }
}
