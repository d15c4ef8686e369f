import type { CustomPage } from './repository.js';

export interface SeoTag {
  attribute: 'name' | 'property';
  key: string;
  content: string;
}

export interface Seo {
  title: string;
  tags: SeoTag[];
}

/** Plain text for a description: the page's own, else the start of its body without markup. */
function summary(page: CustomPage): string {
  if (page.meta.description) return page.meta.description;
  const text = page.body
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * One list of head tags for a page, used both by the API (the app sets them
 * after navigation) and by the server when it answers /pages/{slug} directly,
 * so that link previews and search engines see the same thing.
 */
export function seoFor(page: CustomPage, site: { name: string; url: string }): Seo {
  const title = site.name ? `${page.title} - ${site.name}` : page.title;
  const description = summary(page);
  const url = `${site.url.replace(/\/$/, '')}/pages/${page.slug}`;
  const image = page.meta.og_image.startsWith('/') ? `${site.url.replace(/\/$/, '')}${page.meta.og_image}` : page.meta.og_image;
  const tags: SeoTag[] = [
    { attribute: 'name', key: 'description', content: description },
    ...(page.meta.keywords ? [{ attribute: 'name' as const, key: 'keywords', content: page.meta.keywords }] : []),
    { attribute: 'property', key: 'og:type', content: 'article' },
    { attribute: 'property', key: 'og:title', content: page.title },
    { attribute: 'property', key: 'og:description', content: description },
    { attribute: 'property', key: 'og:url', content: url },
    ...(site.name ? [{ attribute: 'property' as const, key: 'og:site_name', content: site.name }] : []),
    ...(image ? [{ attribute: 'property' as const, key: 'og:image', content: image }] : []),
  ];
  return { title, tags };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * index.html with the page's title and tags in place of the app's own title
 * and description. Everything is escaped: titles and descriptions are admin
 * text and must not open a tag.
 */
export function withSeo(indexHtml: string, seo: Seo): string {
  const tags = seo.tags.map((t) => `<meta ${t.attribute}="${escapeHtml(t.key)}" content="${escapeHtml(t.content)}" data-seo />`).join('\n    ');
  const head = `<title>${escapeHtml(seo.title)}</title>\n    ${tags}`;
  const stripped = indexHtml.replace(/<title>[\s\S]*?<\/title>/i, '').replace(/<meta\s+name="description"[^>]*>/i, '');
  // A function replacer: a `$` in admin text must not be read as a replacement pattern.
  return stripped.replace(/<\/head>/i, () => `  ${head}\n  </head>`);
}
