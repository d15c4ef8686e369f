import sanitizeHtml from 'sanitize-html';

/**
 * The allowlist a custom page's HTML passes through on save and again on the
 * way out (a row written before a rule tightened is still cleaned). It keeps
 * what the rich-text editor (Quill) produces plus plain document markup, and
 * drops scripts, event handlers, script-bearing URLs and foreign frames. The
 * page's Content-Security-Policy (script-src 'self', frame-src 'self') would
 * stop what slipped through; this keeps it from being stored at all.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'span',
    'div',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    iframe: ['src', 'width', 'height', 'title', 'allowfullscreen'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    '*': ['class', 'style'],
  },
  // Quill marks alignment, indentation and sizes with its own classes.
  allowedClasses: { '*': ['ql-*'] },
  // Only plain colours and alignment: no url(), expression() or positioning.
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*[\d.\s,%]+\)$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*[\d.\s,%]+\)$/i],
      'text-align': [/^(left|right|center|justify)$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Frames only from the site itself (relative addresses); every foreign host is dropped.
  allowedIframeHostnames: [],
  allowIframeRelativeUrls: true,
  transformTags: {
    // A link that opens a new tab must not hand the new page a handle on this one.
    a: (tagName, attribs) => {
      const out = { ...attribs };
      if (out.target === '_blank') out.rel = 'noopener noreferrer';
      else delete out.target;
      return { tagName, attribs: out };
    },
  },
};

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, options);
}
