import 'quill/dist/quill.snow.css';
import { useEffect, useRef } from 'react';
import Quill from 'quill';
import { FORMATS, HISTORY, installPasteRules, registerEditorFormats, TOOLBAR } from '../../editor/lib/quill-setup';

// The document editor's Quill setup (formats, link protocols, paste rules, history), without
// its image button: that one uploads into a document's package, which a page does not have.
// Images from elsewhere go in through the HTML mode.
const PAGE_TOOLBAR = TOOLBAR.map((group) => group.filter((control) => control !== 'image'));
const PAGE_FORMATS = FORMATS.filter((format) => format !== 'image');

/** Rich-text editing of a page body. Mounted afresh with the current HTML each time the mode switches to it. */
export function RichTextEditor({ initialHtml, onChange, label }: { initialHtml: string; onChange: (html: string) => void; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const initial = useRef(initialHtml);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    registerEditorFormats();
    const container = document.createElement('div');
    element.appendChild(container);
    const quill = new Quill(container, { theme: 'snow', formats: PAGE_FORMATS, modules: { toolbar: PAGE_TOOLBAR, history: HISTORY } });
    installPasteRules(quill);
    quill.root.setAttribute('aria-label', label);
    quill.root.setAttribute('role', 'textbox');
    quill.root.setAttribute('aria-multiline', 'true');
    quill.clipboard.dangerouslyPasteHTML(initial.current, 'silent');
    quill.on('text-change', () => onChangeRef.current(quill.getSemanticHTML()));
    return () => {
      element.innerHTML = '';
    };
  }, [label]);

  return <div ref={host} className="rounded border border-divider bg-paper [&_.ql-editor]:min-h-64" />;
}
