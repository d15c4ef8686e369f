import { XML_MAX_DEPTH, XmlError, XmlStream } from '../../lib/xml.js';

export { XmlError };

/**
 * The little XML WebDAV needs: request bodies (PROPFIND, PROPPATCH, LOCK)
 * read by the shared streaming parser under its limits, and an escaper for
 * answers. What is not well-formed or namespace-well-formed, or nested too
 * deeply, is a 400; too many elements a 413.
 */

export interface XmlElement {
  /** Namespace URI ('' for none) and local name. */
  ns: string;
  name: string;
  /** Child elements and character data in document order (see elementsOf). */
  content: (XmlElement | string)[];
  qname: string;
  attributes: Record<string, string>;
  declares: Record<string, string>;
  parent: XmlElement | null;
}

/** Real clients send a few dozen elements; a PROPPATCH of many dead properties stays well under this. */
export const DAV_XML_LIMITS = { elements: 10_000, depth: XML_MAX_DEPTH };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const SPECIAL = /[&<>"']/;

// Most names and values have nothing to escape: testing first spares a listing of thousands a copy of each.
export const escapeXml = (value: string): string => (SPECIAL.test(value) ? value.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : value);

/**
 * Builds a request body's element tree as its pieces arrive. `write` and
 * `end` throw XmlError; `end` answers null for a body with no XML at all
 * (empty or only white space).
 */
export class DavXmlReader {
  private root: XmlElement | null = null;
  private current: XmlElement | null = null;
  private started = false;
  private readonly stream = new XmlStream(
    {
      open: (tag) => {
        const element: XmlElement = {
          ns: tag.uri,
          name: tag.local,
          content: [],
          qname: tag.name,
          attributes: tag.attributes,
          declares: tag.declares,
          parent: this.current,
        };
        if (this.current) this.current.content.push(element);
        else this.root = element;
        this.current = element;
      },
      close: () => {
        this.current = this.current?.parent ?? null;
      },
      text: (value) => {
        this.current?.content.push(value);
      },
    },
    { limits: DAV_XML_LIMITS, namespaces: true },
  );

  write(chunk: string): void {
    if (!this.started) {
      // White space (and a byte order mark) before the document is tolerated, as clients send it.
      chunk = chunk.replace(/^[\s\uFEFF]+/, '');
      if (!chunk) return;
      this.started = true;
    }
    this.stream.write(chunk);
  }

  end(): XmlElement | null {
    if (!this.started) return null;
    this.stream.end();
    return this.root;
  }
}

/** A whole body at once (see DavXmlReader). */
export function parseXml(text: string): XmlElement | null {
  const reader = new DavXmlReader();
  reader.write(text);
  return reader.end();
}

/**
 * An element written back as XML with every namespace binding in scope
 * declared on it, so it stands alone: how dead properties and lock owners are
 * stored and answered. Linear in the element's own size.
 */
export function rawXml(element: XmlElement): string {
  const inScope = new Map<string, string>();
  for (let at: XmlElement | null = element; at; at = at.parent) {
    for (const [prefix, uri] of Object.entries(at.declares)) if (!inScope.has(prefix) && prefix !== 'xml') inScope.set(prefix, uri);
  }
  const declarations = [...inScope].map(([prefix, uri]) => (prefix ? ` xmlns:${prefix}="${escapeXml(uri)}"` : ` xmlns="${escapeXml(uri)}"`)).join('');
  const own = Object.entries(element.attributes)
    .filter(([name]) => name !== 'xmlns' && !name.startsWith('xmlns:'))
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  const parts: string[] = [];
  writeElement(element, `${declarations}${own}`, parts);
  return parts.join('');
}

function writeElement(element: XmlElement, attributes: string, parts: string[]): void {
  if (!element.content.length) {
    parts.push(`<${element.qname}${attributes}/>`);
    return;
  }
  parts.push(`<${element.qname}${attributes}>`);
  for (const node of element.content) {
    if (typeof node === 'string') parts.push(escapeXml(node));
    else
      writeElement(
        node,
        Object.entries(node.attributes)
          .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
          .join(''),
        parts,
      );
  }
  parts.push(`</${element.qname}>`);
}

export const DAV = 'DAV:';

export const elementsOf = (element: XmlElement): XmlElement[] => element.content.filter((node): node is XmlElement => typeof node !== 'string');
export const childrenOf = (element: XmlElement, ns: string, name: string): XmlElement[] => elementsOf(element).filter((c) => c.ns === ns && c.name === name);
export const childOf = (element: XmlElement, ns: string, name: string): XmlElement | undefined => childrenOf(element, ns, name)[0];

/** A property's name as an element with its own namespace, for answers. */
export function propertyTag(ns: string, name: string, inner?: string): string {
  const open = ns === DAV ? `D:${name}` : ns === '' ? `${name} xmlns=""` : `X:${name} xmlns:X="${escapeXml(ns)}"`;
  const close = ns === DAV ? `D:${name}` : ns === '' ? name : `X:${name}`;
  return inner === undefined || inner === '' ? `<${open}/>` : `<${open}>${inner}</${close}>`;
}
