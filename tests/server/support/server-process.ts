import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Headers of a signed-in session: cookie, x-xsrf-token, tus-resumable. */
export type Session = Record<string, string>;

/**
 * The real server (`server/main.ts`) as a child process on a data folder and
 * database of its own, for tests that kill it (SIGKILL) and start it again.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private stderr = '';

  constructor(
    readonly dataDir: string,
    private readonly env: Record<string, string>,
    readonly port: number,
    private readonly admin: { email: string; password: string },
  ) {}

  /** The environment the server runs with (the doctor reads the same). */
  get serverEnv(): Record<string, string> {
    return {
      ...this.env,
      DATA_DIR: this.dataDir,
      PORT: String(this.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: this.admin.email,
      ADMIN_PASSWORD: this.admin.password,
      WEB_DIST_DIR: path.join(this.dataDir, 'none'),
    };
  }

  /** The running server's process id (null when stopped). */
  get pid(): number | null {
    return this.child?.exitCode === null ? (this.child.pid ?? null) : null;
  }

  url(address: string): string {
    return `http://127.0.0.1:${this.port}${address}`;
  }

  /** Starts the server and resolves once it answers /health (start-up recovery runs before that). */
  async start(extraEnv: Record<string, string> = {}): Promise<void> {
    this.stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, ...this.serverEnv, ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.child = child;
    for (let i = 0; i < 300; i += 1) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${this.stderr}`);
      try {
        if ((await fetch(this.url('/api/v1/health'))).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server did not start: ${this.stderr}`);
  }

  /** Resolves once the server wrote `text` to stderr. */
  async waitFor(text: string, timeoutMs = 20_000): Promise<void> {
    for (let waited = 0; !this.stderr.includes(text); waited += 50) {
      if (waited > timeoutMs) throw new Error(`server never said "${text}": ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A crash: SIGKILL, nothing gets to clean up. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** An orderly stop (SIGTERM): requests finish, the database closes. */
  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** A signed-in browser-like session (the admin's unless told): cookies, the session-bound XSRF token, the tus version. */
  async session(account: { email: string; password: string } = this.admin): Promise<Session> {
    const first = await fetch(this.url('/api/v1/health'));
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const login = await fetch(this.url('/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify(account),
    });
    const cookies = login.headers.getSetCookie();
    const token = cookies.map((c) => /^drive_session=([^;]+)/.exec(c)?.[1]).find(Boolean)!;
    // Signing in rotates the XSRF token to one bound to the new session: the last one set counts.
    const bound = cookies
      .map((c) => /^XSRF-TOKEN=([^;]+)/.exec(c)?.[1])
      .filter(Boolean)
      .at(-1)!;
    return { cookie: `XSRF-TOKEN=${bound}; drive_session=${token}`, 'x-xsrf-token': bound, 'tus-resumable': '1.0.0' };
  }
}

/** Runs `npm run doctor` (its script) on the server's data; answers its exit code and output. */
export function runDoctorProcess(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/doctor.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
