import { SaxesParser, type SaxesTag } from 'saxes';

/**
 * XML that comes from outside (a .docx's parts, WebDAV request bodies), read
 * by one streaming parser under limits. saxes reads each character once, and
 * the limits are checked as each element starts, so a hostile document costs
 * time linear in the bytes read and stops at the element that crosses a
 * limit. No DTD is accepted, so no entity is ever expanded.
 */

export interface XmlLimits {
  /** Elements in the whole document. */
  elements: number;
  /** Elements open at once. */
  depth: number;
}

/** Deeper than any document we read needs; every reader shares it. */
export const XML_MAX_DEPTH = 256;

export class XmlError extends Error {
  constructor(
    message: string,
    /** 'too-large': more elements (or bytes) than the reader accepts; 'malformed' covers too deep as well. */
    readonly reason: 'malformed' | 'too-large' = 'malformed',
  ) {
    super(message);
    this.name = 'XmlError';
  }
}

export interface XmlTag {
  /** The qualified name as written (`w:p`). */
  name: string;
  /** With namespaces: the namespace URI ('' for none). Without: ''. */
  uri: string;
  /** With namespaces: the local name. Without: the qualified name. */
  local: string;
  /** Attribute values by qualified name, namespace declarations included (frozen when there are none). */
  attributes: Record<string, string>;
  /** With namespaces: the bindings this tag declares itself ('' is the default namespace). */
  declares: Record<string, string>;
}

export interface XmlEvents {
  open(tag: XmlTag, depth: number): void;
  close(): void;
  /** Character data, CDATA sections included. */
  text(value: string): void;
}

/** A document written to in pieces (as a request body arrives); every XML problem is thrown as an XmlError from `write` or `end`. */
export class XmlStream {
  private readonly parser: SaxesParser<{ xmlns: boolean; position: false }>;
  private elements = 0;
  private depth = 0;

  constructor(
    events: XmlEvents,
    readonly options: { limits: XmlLimits; namespaces: boolean },
  ) {
    const { limits } = options;
    this.parser = new SaxesParser({ xmlns: options.namespaces, position: false });
    // Thrown from inside saxes, so the parse stops at once instead of carrying on with the rest of the chunk.
    this.parser.on('error', (error) => {
      throw new XmlError(error.message);
    });
    this.parser.on('doctype', () => {
      throw new XmlError('DTDs are not accepted');
    });
    this.parser.on('opentagstart', () => {
      this.elements += 1;
      if (this.elements > limits.elements) throw new XmlError('The XML has too many elements', 'too-large');
      if (this.depth + 1 > limits.depth) throw new XmlError('The XML is nested too deeply');
    });
    this.parser.on('opentag', (tag) => {
      this.depth += 1;
      events.open(toTag(tag), this.depth);
    });
    this.parser.on('closetag', () => {
      this.depth -= 1;
      events.close();
    });
    this.parser.on('text', events.text);
    this.parser.on('cdata', events.text);
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): void {
    this.parser.close();
  }
}

/** Most elements have no attributes and declare nothing: they share this instead of keeping an empty object each. */
const NONE: Record<string, string> = Object.freeze({});

function toTag(tag: SaxesTag): XmlTag {
  let attributes = NONE;
  for (const key in tag.attributes) {
    if (attributes === NONE) attributes = {};
    const value = tag.attributes[key]!;
    attributes[key] = typeof value === 'string' ? value : value.value;
  }
  let declares = NONE;
  for (const _ in tag.ns) {
    declares = tag.ns!;
    break;
  }
  return { name: tag.name, uri: tag.uri ?? '', local: tag.local ?? tag.name, attributes, declares };
}

/** A whole document in one string. */
export function parseXmlText(text: string, events: XmlEvents, options: XmlStream['options']): void {
  const stream = new XmlStream(events, options);
  stream.write(text);
  stream.end();
}
