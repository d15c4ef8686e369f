import type { Readable } from 'node:stream';
import type { DriveFacade } from '../drive/facade.js';
import type { UploadsService } from '../uploads/service.js';
import type { LockRules } from './lock-rules.js';
import { davError, type DavResponse } from './props.js';
import type { WebDavRepository } from './repository.js';
import type { ResolveDeps } from './resources.js';
import type { XmlElement } from './xml.js';

export const DAV_PREFIX = '/dav';

export interface DavRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The host (and port) the request was sent to, as the client named it. */
  host: string;
  /** The body, for PUT a stream. */
  stream: Readable;
  /**
   * The body of an XML method (small, capped), parsed as it arrives: null when
   * empty. Throws XmlError: 'malformed' (a 400) or 'too-large' (a 413).
   */
  xml: () => Promise<XmlElement | null>;
  /** Whether the body has any bytes (they are read and dropped). */
  hasBody: () => Promise<boolean>;
}

export interface WebDavDeps extends ResolveDeps {
  drive: ResolveDeps['drive'] &
    Pick<DriveFacade, 'childrenOfLoaded' | 'usage' | 'read' | 'readLoaded' | 'createFolder' | 'moveTo' | 'moveOnto' | 'copyTo' | 'moveToTrash'>;
  uploads: Pick<UploadsService, 'storeWhole'>;
  repo: WebDavRepository;
  /** The site's public address: a COPY or MOVE to any other server is refused. */
  siteUrl: () => Promise<string>;
}

/** What every method family works with: the service's dependencies and the lock rules they share. */
export interface DavContext {
  deps: WebDavDeps;
  locks: LockRules;
}

export const header = (request: DavRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export const fail = (status: number, condition?: string): DavResponse => ({ status, ...(condition ? davError(condition) : {}) });
