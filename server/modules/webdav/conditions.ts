/**
 * The If header (RFC 4918 §10.4): lists of state tokens and entity tags,
 * optionally tagged with the resource they are about. A request goes ahead
 * when any list of the header is true; its state tokens are what the client
 * "submits" to get past locks.
 */
export interface Condition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}

export interface ConditionList {
  /** The path the list is about (tagged lists), or null for the request's own resource. */
  resource: string | null;
  conditions: Condition[];
}

export class IfHeaderError extends Error {}

export function parseIfHeader(header: string): ConditionList[] {
  const lists: ConditionList[] = [];
  let i = 0;
  let tag: string | null = null;
  const skip = () => {
    while (i < header.length && /\s/.test(header[i]!)) i += 1;
  };
  skip();
  while (i < header.length) {
    if (header[i] === '<') {
      const end = header.indexOf('>', i);
      if (end < 0) throw new IfHeaderError('bad tag');
      tag = header.slice(i + 1, end);
      i = end + 1;
    } else if (header[i] === '(') {
      i += 1;
      const conditions: Condition[] = [];
      for (;;) {
        skip();
        if (header[i] === ')') {
          i += 1;
          break;
        }
        let not = false;
        if (header.slice(i, i + 3).toLowerCase() === 'not') {
          not = true;
          i += 3;
          skip();
        }
        if (header[i] === '<') {
          const end = header.indexOf('>', i);
          if (end < 0) throw new IfHeaderError('bad state token');
          conditions.push({ not, kind: 'token', value: header.slice(i + 1, end) });
          i = end + 1;
        } else if (header[i] === '[') {
          const end = header.indexOf(']', i);
          if (end < 0) throw new IfHeaderError('bad entity tag');
          conditions.push({ not, kind: 'etag', value: header.slice(i + 1, end) });
          i = end + 1;
        } else throw new IfHeaderError('bad condition');
      }
      if (!conditions.length) throw new IfHeaderError('empty list');
      lists.push({ resource: tag, conditions });
    } else throw new IfHeaderError('bad If header');
    skip();
  }
  if (!lists.length) throw new IfHeaderError('empty If header');
  return lists;
}

/** The state tokens a header mentions (not negated): those submitted for locks. */
export const submittedTokens = (lists: ConditionList[]): string[] =>
  lists.flatMap((l) => l.conditions.filter((c) => c.kind === 'token' && !c.not).map((c) => c.value));

/** Whether an entity tag in a condition names the given one (weak comparison, as If allows). */
export const etagMatches = (wanted: string, actual: string | null): boolean => actual !== null && wanted.replace(/^W\//, '') === actual.replace(/^W\//, '');
