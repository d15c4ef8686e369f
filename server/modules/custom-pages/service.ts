import { HttpError, NotFound, Unauthenticated } from '../../lib/errors.js';
import type { CustomPage, CustomPagesRepository } from './repository.js';
import { seoFor, type Seo } from './seo.js';

export const PAGE_NOT_FOUND = 'This page does not exist.';

/** Reading custom pages (spec §2 "Custom page", §7 GET custom-pages/{slug}). */
export class CustomPagesService {
  constructor(
    private readonly repo: CustomPagesRepository,
    private readonly site: () => Promise<{ name: string; url: string }>,
  ) {}

  /**
   * The page and its head tags for this visitor. A page for signed-in people
   * answers a guest 401 (the app sends them to /login); unknown slugs 404.
   */
  async forVisitor(slug: string, signedIn: boolean): Promise<{ page: CustomPage; seo: Seo }> {
    const page = await this.repo.bySlug(slug);
    if (!page) throw NotFound(PAGE_NOT_FOUND);
    if (page.visibility === 'signed_in' && !signedIn) throw Unauthenticated();
    return { page, seo: seoFor(page, await this.site()) };
  }

  /**
   * Head tags for the server-rendered index.html as a guest sees the page, or
   * null when it is missing or for signed-in people only (the app then shows
   * its own screen, and nothing about such a page leaks into the HTML).
   */
  async headFor(slug: string): Promise<Seo | null> {
    try {
      return (await this.forVisitor(slug, false)).seo;
    } catch (error) {
      if (error instanceof HttpError) return null;
      throw error;
    }
  }
}
