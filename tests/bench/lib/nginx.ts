import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Debian's nginx, installed on demand (the bench is the only user of it). */
export function ensureNginx(): string {
  try {
    execFileSync('which', ['nginx'], { stdio: 'ignore' });
  } catch {
    if (process.getuid?.() !== 0) throw new Error("nginx is missing: run 'sudo apt-get install -y nginx' once.");
    execFileSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    // The package starts a system nginx on port 80; the bench runs its own.
    try {
      execFileSync('service', ['nginx', 'stop'], { stdio: 'ignore' });
    } catch {
      // no init system here
    }
  }
  return 'nginx';
}

/**
 * An nginx of our own on 127.0.0.1: WebDAV PUT under /dav/ (the reference
 * for uploads) and sendfile under /files/ (the reference for downloads).
 */
export async function startNginx(dir: string, port: number): Promise<{ url: string; root: string; stop: () => Promise<void> }> {
  ensureNginx();
  const root = path.join(dir, 'root');
  await fs.mkdir(path.join(root, 'dav'), { recursive: true });
  await fs.mkdir(path.join(root, 'files'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(
    conf,
    `daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  tcp_nopush on;
  client_max_body_size 0;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location /dav/ { dav_methods PUT DELETE; create_full_put_path on; client_body_temp_path ${dir}/davtmp; }
    location /files/ { }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/files/`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
