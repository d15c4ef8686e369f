import { useEffect } from 'react';
import type { Seo } from './api';

/**
 * Puts a page's title and meta tags into the document head while it is shown,
 * and puts back what was there before. The server already wrote them into
 * the HTML of a direct load; this covers navigation inside the app, replacing
 * tags rather than adding duplicates.
 */
export function usePageHead(seo: Seo | undefined) {
  useEffect(() => {
    if (!seo) return;
    const previousTitle = document.title;
    document.title = seo.title;
    const undo: (() => void)[] = [];
    for (const tag of seo.tags) {
      let element = [...document.head.querySelectorAll('meta')].find((m) => m.getAttribute(tag.attribute) === tag.key) ?? null;
      if (element) {
        const before = element.getAttribute('content');
        const el = element;
        undo.push(() => (before === null ? el.removeAttribute('content') : el.setAttribute('content', before)));
      } else {
        element = document.createElement('meta');
        element.setAttribute(tag.attribute, tag.key);
        document.head.appendChild(element);
        const el = element;
        undo.push(() => el.remove());
      }
      element.setAttribute('content', tag.content);
    }
    return () => {
      document.title = previousTitle;
      for (const step of undo.reverse()) step();
    };
  }, [seo]);
}
