import { SaxesParser } from 'saxes';

/**
 * A small element tree from an XML part, built by a streaming parser under
 * limits: no DTD (so no entity expansion of any kind), bounded element count
 * and depth. WordprocessingML is read by its qualified names (`w:p`), which
 * every producer we meet (Word, LibreOffice, the docx package) uses.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** A 300-page document has a few hundred thousand elements; the tree of the cap stays well under 200 MB. */
export const XML_LIMITS = { elements: 500_000, depth: 256 };

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

export function parseXml(text: string, limits = XML_LIMITS): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let count = 0;
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= new XmlError(error.message);
  });
  parser.on('doctype', () => {
    failure ??= new XmlError('DTDs are not accepted');
  });
  parser.on('opentag', (tag) => {
    count += 1;
    if (count > limits.elements || stack.length > limits.depth) {
      failure ??= new XmlError('The XML is too large');
      return;
    }
    const attrs: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) attrs[key] = value;
    const element: XmlElement = { name: tag.name, attrs, children: [] };
    stack.at(-1)!.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => {
    if (stack.length > 1) stack.pop();
  });
  parser.on('text', (value) => {
    if (stack.length > 1) stack.at(-1)!.children.push(value);
  });
  // Fed in slices so a limit stops the work early instead of after the whole part.
  const SLICE = 1 << 20;
  for (let offset = 0; offset < text.length && !failure; offset += SLICE) parser.write(text.slice(offset, offset + SLICE));
  if (!failure) parser.close();
  if (failure) throw failure;
  const top = root.children.find((child): child is XmlElement => typeof child !== 'string');
  if (!top) throw new XmlError('The XML has no root element');
  return top;
}

export const elements = (node: XmlElement, name?: string): XmlElement[] =>
  node.children.filter((child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name));

export const child = (node: XmlElement | undefined, name: string): XmlElement | undefined => (node ? elements(node, name)[0] : undefined);

/** A `w:val`-style attribute of a child element, or undefined. */
export const childVal = (node: XmlElement | undefined, name: string, attr = 'w:val'): string | undefined => child(node, name)?.attrs[attr];

/** Every descendant element of a name, in document order. */
export function descendants(node: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of elements(node)) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

export const textOf = (node: XmlElement): string => node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
