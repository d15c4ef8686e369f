import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { answering, requireDebianBinary } from '../../peers/debian.js';

const MODULES = '/usr/lib/apache2/modules';

/**
 * An Apache httpd of our own on 127.0.0.1 serving `root` with mod_dav
 * (mod_dav_fs, with its lock database), the reference for the WebDAV bench:
 * the event MPM as Debian ships it, no authentication (the drive's Basic
 * token check is part of what the bench measures of it). Idle connections
 * are kept as long as Fastify keeps them (72 s): with Apache's 5 s, a row in
 * which the drive takes longer than that left the client a closed socket to
 * reuse ("socket hang up").
 */
export async function startApache(dir: string, port: number): Promise<{ url: string; root: string; pid: number; stop: () => Promise<void> }> {
  const binary = requireDebianBinary({ binary: 'apache2', pkg: 'apache2', stopsService: 'apache2' });
  const root = path.join(dir, 'root');
  await fs.mkdir(root, { recursive: true });
  await fs.mkdir(path.join(dir, 'lock'), { recursive: true });
  // As root Apache serves as www-data: the tree and the lock database must be theirs.
  const user = process.getuid?.() === 0 ? 'www-data' : null;
  if (user) execFileSync('chown', ['-R', `${user}:${user}`, dir]);
  const conf = path.join(dir, 'apache2.conf');
  await fs.writeFile(
    conf,
    `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/apache2.pid
ErrorLog ${dir}/error.log
LogLevel warn
${user ? `User ${user}\nGroup ${user}` : ''}
LoadModule mpm_event_module ${MODULES}/mod_mpm_event.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule mime_module ${MODULES}/mod_mime.so
LoadModule dav_module ${MODULES}/mod_dav.so
LoadModule dav_fs_module ${MODULES}/mod_dav_fs.so
TypesConfig /etc/mime.types
KeepAlive On
MaxKeepAliveRequests 0
KeepAliveTimeout 72
EnableSendfile On
DAVLockDB ${dir}/lock/DAVLock
DocumentRoot ${root}
<Directory ${root}>
  Dav On
  Require all granted
  AllowOverride None
  Options None
</Directory>
LimitRequestBody 0
`,
  );
  const child = spawn(binary, ['-d', dir, '-f', conf, '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { stop } = await answering(child, () => fetch(`http://127.0.0.1:${port}/`, { method: 'OPTIONS' }));
  return { url: `http://127.0.0.1:${port}`, root, pid: child.pid!, stop };
}
