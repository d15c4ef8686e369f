import { parseXmlText, XML_MAX_DEPTH, XmlError } from '../../lib/xml.js';

export { XmlError };

/**
 * A small element tree from an XML part, read by the shared streaming parser
 * under its limits (server/lib/xml.ts). WordprocessingML is read by its
 * qualified names (`w:p`), which every producer we meet (Word, LibreOffice,
 * the docx package) uses.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** A 300-page document has a few hundred thousand elements; the tree of the cap stays well under 200 MB. */
export const XML_LIMITS = { elements: 500_000, depth: XML_MAX_DEPTH };

export function parseXml(text: string, limits = XML_LIMITS): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  parseXmlText(
    text,
    {
      open(tag) {
        const element: XmlElement = { name: tag.name, attrs: tag.attributes, children: [] };
        stack.at(-1)!.children.push(element);
        stack.push(element);
      },
      close() {
        stack.pop();
      },
      text(value) {
        if (stack.length > 1) stack.at(-1)!.children.push(value);
      },
    },
    { limits, namespaces: false },
  );
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
