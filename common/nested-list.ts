/** A list item with the items nested under it, as the document model stores lists. */
export interface NestedItem<R> {
  runs: R[];
  subItems?: NestedItem<R>[];
}

/**
 * Lines of a list, each with its indent level, as nested items: a line one
 * level deeper than the one before it becomes that line's sub-item. A line
 * that skips levels hangs under empty items, so no text is lost and the depth
 * is kept as written. Word's paragraphs (server) and Quill's lines (page) are
 * both read this way.
 */
export function nestByLevel<R>(lines: readonly { runs: R[]; level: number }[]): NestedItem<R>[] {
  const items: NestedItem<R>[] = [];
  const stack: NestedItem<R>[][] = [items];
  for (const line of lines) {
    while (stack.length - 1 > line.level) stack.pop();
    while (stack.length - 1 < line.level) {
      const siblings = stack.at(-1)!;
      let parent = siblings.at(-1);
      if (!parent) {
        parent = { runs: [] };
        siblings.push(parent);
      }
      parent.subItems ??= [];
      stack.push(parent.subItems);
    }
    stack.at(-1)!.push({ runs: line.runs });
  }
  return items;
}
