import type { Readable } from 'node:stream';
import type { DeadProperty, DavLock } from './repository.js';
import { hrefOf, type Listed } from './resources.js';
import type { FileEntryRow } from '../../db/types.js';
import { DAV, escapeXml, propertyTag } from './xml.js';

export interface DavResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer | Readable;
}

export const etagOf = (entry: Pick<FileEntryRow, 'type' | 'hash' | 'updated_at' | 'sha256' | 'file_size'>): string =>
  entry.type === 'folder'
    ? `"${entry.hash}-${Date.parse(String(entry.updated_at))}"`
    : `"${entry.hash}-${(entry.sha256 ?? '').slice(0, 16)}-${entry.file_size}"`;

export function activeLockXml(lock: DavLock, prefix: string, path: string[]): string {
  const root = lock.resource.split('/').length;
  const href = `${prefix}/${path
    .slice(0, Math.max(1, root))
    .map((s) => encodeURIComponent(s))
    .join('/')}`;
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>${lock.owner ?? ''}<D:timeout>Second-${lock.timeoutSeconds}</D:timeout>` +
    `<D:locktoken><D:href>${lock.token}</D:href></D:locktoken><D:lockroot><D:href>${href}</D:href></D:lockroot></D:activelock>`
  );
}

export type PropRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: { ns: string; name: string }[] };

export interface PropName {
  ns: string;
  name: string;
}

export interface Response {
  href: string[];
  collection: boolean;
  propstats: { status: number; props: (PropName & { xml?: string; value?: string })[] }[];
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 424: 'Failed Dependency' };

export const davError = (condition: string): Pick<DavResponse, 'headers' | 'body'> => ({
  headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  body: `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:${condition}/></D:error>`,
});

export function multistatus(responses: Response[]): DavResponse {
  const parts = responses.map((response) => {
    const stats = response.propstats
      .filter((stat) => stat.props.length)
      .map(
        (stat) =>
          `<D:propstat><D:prop>${stat.props.map((p) => p.xml ?? propertyTag(p.ns, p.name, p.value)).join('')}</D:prop><D:status>HTTP/1.1 ${stat.status} ${STATUS_TEXT[stat.status] ?? ''}</D:status></D:propstat>`,
      )
      .join('');
    return `<D:response><D:href>${escapeXml(hrefOf('/dav', response.href, response.collection))}</D:href>${stats}</D:response>`;
  });
  return {
    status: 207,
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    body: `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${parts.join('')}</D:multistatus>`,
  };
}

const LIVE = [
  'resourcetype',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'creationdate',
  'supportedlock',
  'lockdiscovery',
  'quota-used-bytes',
  'quota-available-bytes',
] as const;

/** The live properties' tags, written once rather than for each member of a listing. */
const LIVE_TAGS = LIVE.map((name) => ({ name, quota: name.startsWith('quota-'), open: `<D:${name}>`, close: `</D:${name}>`, empty: `<D:${name}/>` }));

interface Context {
  dead: Map<number, DeadProperty[]>;
  usage: { used: number; available: number | null } | null;
  locks: DavLock[];
}

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** The live properties of a resource, as inner XML (undefined: the resource has no such property). */
function liveValue(resource: Listed, name: string, context: Context): string | undefined {
  const entry = resource.kind === 'entry' ? resource.entry : null;
  const folder = !entry || entry.type === 'folder';
  switch (name) {
    case 'resourcetype':
      return folder ? '<D:collection/>' : '';
    case 'displayname':
      return escapeXml(resource.path.at(-1) ?? '');
    case 'getcontentlength':
      return folder ? undefined : String(entry!.file_size);
    case 'getcontenttype':
      return folder ? undefined : escapeXml(entry!.mime ?? 'application/octet-stream');
    case 'getetag':
      return entry ? escapeXml(etagOf(entry)) : undefined;
    case 'getlastmodified':
      return entry ? httpDate(String(entry.updated_at)) : undefined;
    case 'creationdate':
      return entry ? isoDate(String(entry.created_at)) : undefined;
    case 'supportedlock':
      return resource.kind === 'entry' ? SUPPORTED_LOCK : undefined;
    case 'lockdiscovery':
      return resource.kind === 'entry' ? context.locks.map((lock) => activeLockXml(lock, '/dav', resource.path)).join('') : undefined;
    case 'quota-used-bytes':
      return folder && context.usage ? String(context.usage.used) : undefined;
    case 'quota-available-bytes':
      return folder && context.usage && context.usage.available !== null ? String(Math.max(0, context.usage.available - context.usage.used)) : undefined;
    default:
      return undefined;
  }
}

/** A timestamp as both dialects give it (server/lib/time.ts, the PostgreSQL type parsers in db/index.ts). */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** "Fri, 27 Nov 2026" by "2026-11-27": a listing's members share a few days (bounded: cleared when full). */
const DAYS = new Map<string, string>();

/**
 * `new Date(iso).toUTCString()` (HTTP's date, RFC 9110 §5.6.7) without a Date
 * for each member of a listing: the day's part is looked up, the time copied.
 * Parsing and formatting two dates per member was most of what writing a
 * 10,000-file PROPFIND cost after its SQL.
 */
export function httpDate(iso: string): string {
  if (!ISO.test(iso)) return new Date(iso).toUTCString();
  const day = iso.slice(0, 10);
  let prefix = DAYS.get(day);
  if (prefix === undefined) {
    prefix = new Date(`${day}T00:00:00.000Z`).toUTCString().slice(0, 16);
    if (DAYS.size >= 4096) DAYS.clear();
    DAYS.set(day, prefix);
  }
  return `${prefix} ${iso.slice(11, 19)} GMT`;
}

/** `new Date(value).toISOString()`: a stored timestamp already is one. */
const isoDate = (value: string): string => (ISO.test(value) ? value : new Date(value).toISOString());

const PROPSTAT_OK = '</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>';
const PROPSTAT_MISSING = '</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>';

/** About this many characters of text become bytes at a time (see Utf8Pieces). */
const PIECE = 64 * 1024;

/**
 * Text appended in small strings and turned into bytes every PIECE
 * characters: a listing of ten thousand members never becomes one rope of
 * half a million strings, which the collector copies through the young
 * generation and which must be flattened (walked again) before it is written.
 */
class Utf8Pieces {
  private readonly pieces: Buffer[] = [];
  private text = '';

  add(text: string): void {
    this.text += text;
    if (this.text.length >= PIECE) this.flush();
  }

  end(): Buffer {
    this.flush();
    return this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
  }

  private flush(): void {
    if (!this.text) return;
    this.pieces.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

/**
 * A PROPFIND's multistatus written member by member (the XML `multistatus`
 * writes), as bytes: a Depth 1 listing of thousands of files builds no object
 * per property, and a member's href is its collection's, already encoded, and
 * its own name.
 */
export function propfindXml(
  prefix: string,
  members: Listed[],
  wanted: PropRequest,
  context: Omit<Context, 'locks'> & { locks: Map<string, DavLock[]> },
): Buffer {
  const out = new Utf8Pieces();
  out.add('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">');
  const [first] = members;
  const base = first ? hrefOf(prefix, first.path, true) : '';
  const depth = first?.path.length ?? 0;
  const names = wanted.kind === 'prop' ? wanted.names : null;
  const noLocks: DavLock[] = [];
  const memberContext: Context = { dead: context.dead, usage: context.usage, locks: noLocks };
  // With no lock anywhere around (the usual listing) no member needs its path as a key.
  const anyLocks = context.locks.size > 0;
  for (const member of members) {
    const collection = member.kind !== 'entry' || member.entry.type === 'folder';
    const href =
      member !== first && member.path.length === depth + 1
        ? `${base}${encodeURIComponent(member.path[depth]!)}${collection ? '/' : ''}`
        : hrefOf(prefix, member.path, collection);
    memberContext.locks = anyLocks ? (context.locks.get(member.path.join('/')) ?? noLocks) : noLocks;
    const dead = member.kind === 'entry' ? (context.dead.get(member.entry.id) ?? NO_DEAD) : NO_DEAD;
    let found = '';
    let missing = '';
    if (names) {
      for (const name of names) {
        const value = name.ns === DAV ? liveValue(member, name.name, memberContext) : undefined;
        if (value !== undefined) found += propertyTag(name.ns, name.name, value);
        else {
          const property = dead.find((p) => p.ns === name.ns && p.name === name.name);
          if (property) found += property.xml;
          else missing += propertyTag(name.ns, name.name);
        }
      }
    } else {
      const all = wanted.kind === 'allprop';
      for (const tag of LIVE_TAGS) {
        if (all && tag.quota) continue;
        const value = liveValue(member, tag.name, memberContext);
        // As propertyTag writes them: empty when there is nothing inside.
        if (value !== undefined) found += !all || value === '' ? tag.empty : `${tag.open}${value}${tag.close}`;
      }
      for (const property of dead) found += all ? property.xml : propertyTag(property.ns, property.name);
    }
    let response = `<D:response><D:href>${escapeXml(href)}</D:href>`;
    if (found) response += `<D:propstat><D:prop>${found}${PROPSTAT_OK}`;
    if (missing) response += `<D:propstat><D:prop>${missing}${PROPSTAT_MISSING}`;
    out.add(`${response}</D:response>`);
  }
  out.add('</D:multistatus>');
  return out.end();
}

const NO_DEAD: DeadProperty[] = [];
