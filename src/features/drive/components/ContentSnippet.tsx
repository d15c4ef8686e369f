import { Fragment } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import type { FileEntry, ListedFileEntry, SnippetSegment } from '../api/types';

/** The snippet of a content search match, if the listing sent one for this entry. */
export function contentMatchOf(entry: FileEntry): SnippetSegment[] | null {
  const segments = (entry as Partial<ListedFileEntry>).content_match?.segments;
  return segments?.length ? segments : null;
}

/**
 * Where the searched words are in a file's text: the server sends plain text
 * runs, and the matched ones are marked here as React text in <mark> — never
 * markup from the server, so a file's text cannot inject any.
 */
export function ContentSnippet({ segments }: { segments: SnippetSegment[] }) {
  const { t } = useTrans();
  return (
    <span className="block truncate text-xs font-normal text-fg-muted" data-testid="content-snippet">
      <span className="sr-only">{t('Found in the file:')} </span>
      {segments.map((segment, i) =>
        segment.match ? (
          <mark key={i} className="rounded-sm bg-amber-200/70 px-0.5 text-fg dark:bg-amber-400/30">
            {segment.text}
          </mark>
        ) : (
          <Fragment key={i}>{segment.text}</Fragment>
        ),
      )}
    </span>
  );
}
