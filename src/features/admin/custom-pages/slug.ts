/** A URL-safe slug from a title: lowercase ASCII letters and digits joined by single dashes (the server's rule). */
export function slugify(text: string): string {
  return text
    .replace(/ı/g, 'i')
    .replace(/İ/g, 'i')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 250)
    .replace(/-+$/, '');
}

export interface SlugState {
  title: string;
  slug: string;
  /** Once the admin types in the slug field it stops following the title. */
  slugEdited: boolean;
}

export type SlugAction = { type: 'title'; value: string } | { type: 'slug'; value: string };

/** The editor's rule: the slug follows the title until it is edited by hand. */
export function slugReducer(state: SlugState, action: SlugAction): SlugState {
  if (action.type === 'title') {
    return { ...state, title: action.value, slug: state.slugEdited ? state.slug : slugify(action.value) };
  }
  return { ...state, slug: action.value, slugEdited: true };
}

/** A new page follows its title; an existing page keeps its address (links to it already exist). */
export const initialSlugState = (page: { title: string; slug: string } | null): SlugState =>
  page ? { title: page.title, slug: page.slug, slugEdited: true } : { title: '', slug: '', slugEdited: false };
