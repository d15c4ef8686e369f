import { HttpError } from '../../lib/errors.js';
import type { Actor } from '../access/actor.js';
import { IfHeaderError } from './conditions.js';
import { get, put } from './content.js';
import { LockRules } from './lock-rules.js';
import { lock, unlock } from './locks.js';
import { copyOrMove, mkcol, remove } from './namespace.js';
import { propfind, proppatch } from './properties.js';
import type { DavResponse } from './props.js';
import { DAV_PREFIX, type DavContext, type DavRequest, type WebDavDeps } from './request.js';
import { BadPath, segmentsOf } from './resources.js';
import { XmlError } from './xml.js';

export type { DavResponse, DavRequest, WebDavDeps };
export { DAV_PREFIX };

type Handler = (context: DavContext, actor: Actor, request: DavRequest, path: string[]) => Promise<DavResponse>;

/** Each method's handler, in the order OPTIONS lists them (the Allow header is this table's keys). */
const HANDLERS: Record<string, Handler> = {
  OPTIONS: () => Promise.resolve({ status: 200, headers: { DAV: '1, 2', 'MS-Author-Via': 'DAV', Allow: ALLOW } }),
  GET: get,
  HEAD: get,
  PUT: put,
  DELETE: remove,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  MKCOL: mkcol,
  COPY: (context, actor, request, path) => copyOrMove(context, actor, request, path, false),
  MOVE: (context, actor, request, path) => copyOrMove(context, actor, request, path, true),
  LOCK: lock,
  UNLOCK: unlock,
};
const ALLOW = Object.keys(HANDLERS).join(', ');

/**
 * WebDAV (RFC 4918 class 1 and 2) over the drive: every path is resolved to
 * an entry by name and every read and write goes through the drive's facade
 * and uploads, so the access policy, quota and restrictions are the REST
 * API's. What is WebDAV's own — locks, the If header, dead properties — is in
 * this folder, one file per family of methods: content (GET, HEAD, PUT),
 * properties (PROPFIND, PROPPATCH), namespace (MKCOL, DELETE, COPY, MOVE) and
 * locks (LOCK, UNLOCK, and the rules every write checks).
 */
export class WebDavService {
  private readonly context: DavContext;

  constructor(deps: WebDavDeps) {
    this.context = { deps, locks: new LockRules(deps) };
  }

  async handle(actor: Actor, request: DavRequest): Promise<DavResponse> {
    let path: string[];
    try {
      path = segmentsOf(request.url, DAV_PREFIX);
    } catch (error) {
      if (error instanceof BadPath) return { status: 400 };
      throw error;
    }
    try {
      return await this.dispatch(actor, request, path);
    } catch (error) {
      if (error instanceof XmlError) return { status: error.reason === 'too-large' ? 413 : 400 };
      if (error instanceof IfHeaderError) return { status: 400 };
      if (error instanceof HttpError) {
        // The policy's 404 hides what the caller may not see; 422 (a name or a move the drive refuses) is a 403 here;
        // the drive's 413 is the quota (a body too large for the upload limit is a 422), WebDAV's 507 (RFC 4918 §9.7.1).
        const status = error.statusCode === 422 ? 403 : error.statusCode === 413 ? 507 : error.statusCode;
        return { status, headers: error.headers };
      }
      throw error;
    }
  }

  private dispatch(actor: Actor, request: DavRequest, path: string[]): Promise<DavResponse> {
    // Own keys only: a method named like an Object.prototype member is not a handler.
    const handler = Object.hasOwn(HANDLERS, request.method) ? HANDLERS[request.method] : undefined;
    return handler ? handler(this.context, actor, request, path) : Promise.resolve({ status: 405 });
  }
}
