import type { FastifyInstance } from 'fastify';
import type { EntryAction } from '../../../server/modules/access/actions.js';
import { multipartUpload, tusMetadata } from '../uploads/support.js';

/**
 * Every drive and upload route with the action it needs: the table the
 * access tests run against each kind of caller, in personal spaces
 * (access/routes.test.ts) and in workspaces (workspaces/drive-matrix.test.ts).
 */
export interface Fixture {
  folder: string;
  other: string;
  file: string;
  image: string;
  trashed: string;
  /** A version of `file` (its content before one replacing upload). */
  version: number;
  /** The address of an account that is none of the callers: whom 'share with people' shares with. */
  recipient: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface Call {
  method: Method;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export const json = (method: Method, url: string, body?: unknown): Call => ({ method, url, body });
export const tusCreate = (fx: Fixture): Call => ({
  method: 'POST',
  url: '/api/v1/tus/upload',
  headers: { 'tus-resumable': '1.0.0', 'upload-length': '5', 'upload-metadata': tusMetadata({ name: 'r.txt', parentId: fx.folder }) },
});
/** A version of a file, made by uploading over it ("Replace"); answers the version's id. */
export async function makeVersion(
  send: (call: Call) => Promise<{ statusCode: number; body: string; json(): unknown }>,
  parentId: string,
  file: string,
  suffix = '',
): Promise<number> {
  const { body, headers } = multipartUpload({ parentId, onConflict: 'replace' }, { name: 'a.txt', content: Buffer.from('hello again') });
  const replaced = await send({ method: 'POST', url: `/api/v1/file-entries${suffix}`, body, headers });
  if (replaced.statusCode !== 200) throw new Error(`replace: ${replaced.statusCode} ${replaced.body}`);
  const listed = (await send(json('GET', `/api/v1/file-entries/${file}/versions${suffix}`))).json() as { versions: { id: number }[] };
  return listed.versions[0]!.id;
}

export const plainUpload = (fx: Fixture): Call => {
  const { body, headers } = multipartUpload({ parentId: fx.folder }, { name: 'up.txt', content: Buffer.from('hello') });
  return { method: 'POST', url: '/api/v1/file-entries', body, headers };
};

export const routes: {
  name: string;
  action: EntryAction;
  /** What else the caller needs (a copy lands beside its original: create there). */
  also?: EntryAction[];
  call: (fx: Fixture) => Call;
  ok?: number;
}[] = [
  { name: 'list a folder', action: 'files.view', call: (fx) => json('GET', `/api/v1/drive/file-entries?folderId=${fx.folder}`) },
  { name: 'folder path', action: 'files.view', call: (fx) => json('GET', `/api/v1/folders/${fx.folder}/path`) },
  { name: 'details', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}`) },
  { name: 'offline manifest', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.folder}/offline-manifest`) },
  { name: 'activity', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/activity`) },
  { name: 'star', action: 'files.view', call: (fx) => json('POST', '/api/v1/file-entries/star', { entryIds: [fx.file] }) },
  { name: 'unstar', action: 'files.view', call: (fx) => json('POST', '/api/v1/file-entries/unstar', { entryIds: [fx.file] }) },
  { name: 'preview', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/preview`) },
  { name: 'thumbnail', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.image}/thumbnail`) },
  { name: 'download', action: 'files.download', call: (fx) => json('GET', `/api/v1/file-entries/download?hashes=${fx.file}`) },
  {
    name: 'duplicate',
    action: 'files.download',
    also: ['files.create'],
    call: (fx) => json('POST', '/api/v1/file-entries/duplicate', { entryIds: [fx.file] }),
  },
  { name: 'create a folder', action: 'files.create', call: (fx) => json('POST', '/api/v1/folders', { name: 'New', parentId: fx.folder }) },
  { name: 'plain upload', action: 'files.create', call: plainUpload },
  { name: 'tus upload', action: 'files.create', call: tusCreate, ok: 201 },
  { name: 'rename', action: 'files.update', call: (fx) => json('PUT', `/api/v1/file-entries/${fx.file}`, { name: 'Renamed.txt' }) },
  { name: 'move', action: 'files.update', call: (fx) => json('POST', '/api/v1/file-entries/move', { entryIds: [fx.file], destinationId: fx.other }) },
  { name: 'trash', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/delete', { entryIds: [fx.file] }) },
  { name: 'delete forever', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/delete', { entryIds: [fx.file], deleteForever: true }) },
  { name: 'restore', action: 'files.delete', call: (fx) => json('POST', '/api/v1/file-entries/restore', { entryIds: [fx.trashed] }) },
  { name: 'list versions', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/versions`) },
  { name: 'preview a version', action: 'files.view', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/versions/${fx.version}/preview`) },
  { name: 'download a version', action: 'files.download', call: (fx) => json('GET', `/api/v1/file-entries/${fx.file}/versions/${fx.version}/download`) },
  { name: 'restore a version', action: 'files.update', call: (fx) => json('POST', `/api/v1/file-entries/${fx.file}/versions/${fx.version}/restore`) },
  { name: 'delete a version', action: 'files.update', call: (fx) => json('DELETE', `/api/v1/file-entries/${fx.file}/versions/${fx.version}`) },
  { name: 'new document', action: 'files.create', call: (fx) => json('POST', '/api/v1/documents', { parentId: fx.folder, name: 'Plan' }) },
  { name: 'who it is shared with', action: 'files.share', call: (fx) => json('GET', `/api/v1/file-entries/${fx.folder}/shares`) },
  {
    name: 'share with people',
    action: 'files.share',
    call: (fx) => json('POST', '/api/v1/file-entries/shares', { entryIds: [fx.file], emails: [fx.recipient], permission: 'view' }),
  },
  { name: 'links of an entry', action: 'files.share', call: (fx) => json('GET', `/api/v1/file-entries/${fx.folder}/share-links`) },
  { name: 'make a link', action: 'files.share', call: (fx) => json('POST', `/api/v1/file-entries/${fx.folder}/share-links`, {}) },
  { name: 'revoke the links', action: 'files.share', call: (fx) => json('DELETE', `/api/v1/file-entries/${fx.folder}/share-links`) },
];

/** The drive and upload part of the API: every route under these must be in the table or in `testedElsewhere`. */
export const DRIVE_PREFIXES = [
  '/api/v1/drive/',
  '/api/v1/folders',
  '/api/v1/file-entries',
  '/api/v1/documents',
  '/api/v1/tus/',
  '/api/v1/s3/',
  '/api/v1/share-links/',
  '/api/v1/user/space-usage',
];

/**
 * Drive and upload routes the table cannot describe (no entry to hold a grant on, an upload key instead
 * of an entry, a .docx with a version, another disk), each with the test that calls it as a guest and a
 * stranger. Keys are "METHOD path" with every path parameter written `:`.
 */
export const testedElsewhere: Record<string, string> = {
  'GET /api/v1/drive/folders': 'access/routes.test.ts: routes without an entry',
  'GET /api/v1/user/space-usage': 'access/routes.test.ts: routes without an entry',
  'HEAD /api/v1/tus/upload/:': 'access/routes.test.ts: an upload in flight',
  'PATCH /api/v1/tus/upload/:': 'access/routes.test.ts: an upload in flight',
  'DELETE /api/v1/tus/upload/:': 'access/routes.test.ts: an upload in flight',
  'POST /api/v1/tus/entries': 'access/routes.test.ts: an upload in flight',
  'PUT /api/v1/file-entries/shares/:': 'access/routes.test.ts: changing and removing a share',
  'DELETE /api/v1/file-entries/shares/:': 'access/routes.test.ts: changing and removing a share',
  'POST /api/v1/file-entries/read': 'documents/access.test.ts',
  'POST /api/v1/file-entries/save': 'documents/access.test.ts',
  'POST /api/v1/file-entries/save-copy': "documents/access.test.ts (a viewer's copy lands in their own drive)",
  'GET /api/v1/file-entries/:/document-images/:': 'documents/access.test.ts',
  'PUT /api/v1/share-links/:': 'share-links/links.test.ts',
  'DELETE /api/v1/share-links/:': 'share-links/links.test.ts',
  'GET /api/v1/share-links/:/events': 'share-links/links.test.ts',
  'POST /api/v1/s3/simple/presign': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/entries': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/multipart/create': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/multipart/complete': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/multipart/get-uploaded-parts': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/multipart/batch-sign-part-urls': 'uploads/s3-direct.test.ts (needs the S3 disk)',
  'POST /api/v1/s3/multipart/abort': 'uploads/s3-direct.test.ts (needs the S3 disk)',
};

/**
 * Every route the app registered, as "METHOD path" with path parameters written `:`, read from
 * Fastify's route tree (each line's segment is appended to its parent's). HEAD is left out where GET
 * answers it, as Fastify adds it on its own.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const found: string[] = [];
  const segments: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    segments.length = depth;
    segments.push(match[2]!);
    if (!match[3]) continue;
    const path = segments.join('').replace(/:[^/]+/g, ':');
    const methods = match[3].split(', ');
    for (const method of methods) if (!(method === 'HEAD' && methods.includes('GET'))) found.push(`${method} ${path}`);
  }
  return found;
}

/** The registered route a concrete call reaches: a static path beats one with parameters. */
export function routeOf(registered: string[], call: Call): string | undefined {
  const path = call.url.split('?')[0]!;
  const candidates = registered.filter((route) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const regex = new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:/g, '[^/]+')}$`);
    return method === call.method && regex.test(path);
  });
  return candidates.sort((a, b) => a.split(':').length - b.split(':').length)[0];
}

/** Routes a guest may call (to sign in, to read what every visitor sees, or through a link): the rest must answer them 401. */
export const PUBLIC_ROUTES: Record<string, string> = {
  'GET /': 'the web app',
  'GET /pages/:': 'custom pages (the web app)',
  'GET /manifest.webmanifest': 'the web app',
  'POST /auth/login': 'signing in',
  'POST /auth/logout': 'signing out (harmless without a session)',
  'POST /auth/register': 'registering',
  'POST /auth/reset-password': 'password reset (its token is the proof)',
  'POST /auth/two-factor': "a sign-in's second step: the challenge cookie the first step set is the proof, a session comes only after",
  'POST /auth/passkey/options': "a passkey sign-in's challenge (single use, five minutes): it names no account and grants nothing",
  'POST /auth/passkey': 'signing in with a passkey (the signed challenge is the proof; user verification required without a password)',
  'POST /auth/forgot-password': 'password reset',
  'POST /auth/email/verification-notification': 'asks for the address, not a session',
  'GET /auth/email/verify': 'the signed link is the proof',
  'GET /secure/auth/social/:/login': 'social sign-in popup',
  'GET /secure/auth/social/:/connect': 'popup: tells a guest to sign in first',
  'GET /secure/auth/social/:/callback': "the provider's redirect, checked against the signed state",
  'POST /secure/auth/social/connect': "social sign-in's password step for an existing account",
  'GET /api/v1/bootstrap-data': 'what the app needs before sign-in',
  'GET /api/v1/workspace/invite/:': "an invite link's workspace and inviter, for the join and register pages (the unguessable link is the proof)",
  'GET /api/v1/health': 'health check',
  'GET /api/v1/observability/client': "the app's error-reporting settings (guests' errors count too; a DSN is public)",
  'POST /api/v1/observability/envelope': 'error reports of the app, forwarded only to the configured DSN (404 when off)',
  'GET /api/v1/openapi.json': 'the API description',
  'GET /api/v1/docs': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/static/index.html': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/static/swagger-initializer.js': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/*': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/json': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/docs/yaml': 'API docs: 403 unless the guest role holds api.access',
  'GET /api/v1/billing/products': 'the pricing page',
  'POST /api/v1/billing/stripe/webhook': "Stripe's calls, checked by signature",
  'GET /api/v1/branding/:': 'logos and favicon',
  'GET /api/v1/avatars/:': 'profile images (unguessable names)',
  'GET /api/v1/custom-pages/:': 'custom pages',
  'GET /api/v1/value-lists/:': 'countries, languages and time zones for the forms',
  'POST /api/v1/users/me/locale': "a guest's language is kept in a cookie",
  'POST /api/v1/recaptcha/verify': 'the human check before sign-in',
  'GET /api/v1/shared-links/:': 'share link visitors (share-links/matrix.test.ts)',
  'POST /api/v1/shared-links/:/password': 'share link visitors (share-links/matrix.test.ts)',
  'GET /api/v1/shared-links/:/preview/:': 'share link visitors (share-links/matrix.test.ts)',
  'GET /api/v1/shared-links/:/entries': 'share link visitors (share-links/matrix.test.ts)',
  'GET /api/v1/shared-links/:/download': 'share link visitors (share-links/matrix.test.ts)',
  'GET /api/v1/shared-links/:/thumbnail/:': 'share link visitors (share-links/matrix.test.ts)',
  'POST /api/v1/shared-links/:/file-entries': 'share link visitors (share-links/matrix.test.ts)',
};
