/**
 * The little XML WebDAV needs: a namespace-aware parser for request bodies
 * (PROPFIND, PROPPATCH, LOCK) and an escaper for answers. Bodies are small
 * (the route caps them), so a strict hand-written parser is enough, and it
 * refuses what is not well-formed or not namespace-well-formed (a 400).
 */

export interface XmlElement {
  /** Namespace URI ('' for none) and local name. */
  ns: string;
  name: string;
  children: XmlElement[];
  /** Concatenated character data directly inside. */
  text: string;
  /** The element re-serialised with its namespaces declared: how dead properties are stored. */
  raw: string;
}

export class XmlError extends Error {}

const NAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/u;

export const escapeXml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, ref: string) => {
    if (ref === 'amp') return '&';
    if (ref === 'lt') return '<';
    if (ref === 'gt') return '>';
    if (ref === 'quot') return '"';
    if (ref === 'apos') return "'";
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

interface Frame {
  element: XmlElement;
  qname: string;
  scope: Map<string, string>;
  rawParts: string[];
}

/** Parses a document and answers its root element; throws XmlError when it is not well-formed. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const stack: Frame[] = [];
  let root: XmlElement | null = null;
  const text = source.replace(/^\uFEFF/, '');

  const appendRaw = (part: string) => {
    for (const frame of stack) frame.rawParts.push(part);
  };

  while (i < text.length) {
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end < 0) throw new XmlError('unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      if (end < 0) throw new XmlError('unterminated comment');
      i = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end < 0 || !stack.length) throw new XmlError('bad CDATA');
      const data = text.slice(i + 9, end);
      stack.at(-1)!.element.text += data;
      appendRaw(escapeXml(data));
      i = end + 3;
      continue;
    }
    if (text.startsWith('<!', i)) throw new XmlError('DTDs are not accepted');
    if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      if (end < 0) throw new XmlError('unterminated end tag');
      const qname = text.slice(i + 2, end).trim();
      const frame = stack.pop();
      if (!frame || frame.qname !== qname) throw new XmlError('mismatched end tag');
      frame.rawParts.push(`</${frame.qname}>`);
      frame.element.raw = frame.rawParts.join('');
      for (const outer of stack) outer.rawParts.push(`</${frame.qname}>`);
      if (!stack.length) root = frame.element;
      i = end + 1;
      continue;
    }
    if (text[i] === '<') {
      if (root) throw new XmlError('content after the root element');
      const end = findTagEnd(text, i);
      let body = text.slice(i + 1, end);
      const selfClosing = body.endsWith('/');
      if (selfClosing) body = body.slice(0, -1);
      const match = /^([^\s/>]+)([\s\S]*)$/.exec(body);
      if (!match) throw new XmlError('bad start tag');
      const qname = match[1]!;
      if (!NAME.test(qname)) throw new XmlError('bad element name');
      const attributes = parseAttributes(match[2]!);
      const parentScope = stack.at(-1)?.scope ?? new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
      const scope = new Map(parentScope);
      for (const [key, value] of attributes) {
        if (key === 'xmlns') scope.set('', value);
        else if (key.startsWith('xmlns:')) {
          if (value === '') throw new XmlError('a prefix cannot be bound to the empty namespace');
          scope.set(key.slice(6), value);
        }
      }
      const colon = qname.indexOf(':');
      const prefix = colon >= 0 ? qname.slice(0, colon) : '';
      const local = colon >= 0 ? qname.slice(colon + 1) : qname;
      const ns = scope.get(prefix);
      if (prefix && ns === undefined) throw new XmlError(`undeclared prefix ${prefix}`);
      const element: XmlElement = { ns: ns ?? '', name: local, children: [], text: '', raw: '' };
      const declared = `<${qname}${[...scope]
        .filter(([p]) => p !== 'xml')
        .map(([p, uri]) => (p ? ` xmlns:${p}="${escapeXml(uri)}"` : ` xmlns="${escapeXml(uri)}"`))
        .join('')}`;
      const openTag = `${declared}${selfClosing ? '/>' : '>'}`;
      for (const outer of stack) outer.rawParts.push(text.slice(i, end + 1));
      stack.at(-1)?.element.children.push(element);
      if (selfClosing) {
        element.raw = openTag;
        if (!stack.length) root = element;
      } else stack.push({ element, qname, scope, rawParts: [openTag] });
      i = end + 1;
      continue;
    }
    const next = text.indexOf('<', i);
    const chunk = text.slice(i, next < 0 ? text.length : next);
    if (stack.length) {
      const decoded = decodeEntities(chunk);
      stack.at(-1)!.element.text += decoded;
      appendRaw(escapeXml(decoded));
    } else if (chunk.trim()) throw new XmlError('text outside the root element');
    i = next < 0 ? text.length : next;
  }
  if (stack.length || !root) throw new XmlError('the document is incomplete');
  return root;
}

function findTagEnd(text: string, start: number): number {
  let quote: string | null = null;
  for (let j = start + 1; j < text.length; j += 1) {
    const c = text[j]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
    else if (c === '<') break;
  }
  throw new XmlError('unterminated start tag');
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /\s*([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;
  let rest = source;
  let match: RegExpExecArray | null;
  pattern.lastIndex = 0;
  let consumed = 0;
  while ((match = pattern.exec(rest))) {
    if (attributes.has(match[1]!)) throw new XmlError('duplicate attribute');
    attributes.set(match[1]!, decodeEntities(match[3] ?? match[4] ?? ''));
    consumed = pattern.lastIndex;
  }
  rest = rest.slice(consumed);
  if (rest.trim()) throw new XmlError('bad attributes');
  return attributes;
}

export const DAV = 'DAV:';

export const childrenOf = (element: XmlElement, ns: string, name: string): XmlElement[] => element.children.filter((c) => c.ns === ns && c.name === name);
export const childOf = (element: XmlElement, ns: string, name: string): XmlElement | undefined => childrenOf(element, ns, name)[0];

/** A property's name as an element with its own namespace, for answers. */
export function propertyTag(ns: string, name: string, inner?: string): string {
  const open = ns === DAV ? `D:${name}` : ns === '' ? `${name} xmlns=""` : `X:${name} xmlns:X="${escapeXml(ns)}"`;
  const close = ns === DAV ? `D:${name}` : ns === '' ? name : `X:${name}`;
  return inner === undefined || inner === '' ? `<${open}/>` : `<${open}>${inner}</${close}>`;
}
