import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { answering, requireDebianBinary } from '../../peers/debian.js';

/**
 * An nginx of our own on 127.0.0.1: WebDAV PUT under /dav/ (the reference
 * for uploads) and sendfile under /files/ (the reference for downloads).
 */
export async function startNginx(dir: string, port: number): Promise<{ url: string; root: string; stop: () => Promise<void> }> {
  const binary = requireDebianBinary({ binary: 'nginx', pkg: 'nginx', stopsService: 'nginx' });
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
  const child = spawn(binary, ['-p', dir, '-c', conf], { stdio: 'ignore' });
  const { stop } = await answering(child, () => fetch(`http://127.0.0.1:${port}/files/`));
  return { url: `http://127.0.0.1:${port}`, root, stop };
}
