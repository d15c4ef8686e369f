import Quill from 'quill';
import { describe, expect, it } from 'vitest';
import { deltaToSections, normaliseColor, sectionsToDelta } from '../../../src/features/editor/lib/delta-sections';
import { editorOptions, installPasteRules, registerEditorFormats } from '../../../src/features/editor/lib/quill-setup';
import type { DocumentContent } from '../../../src/offline/documents/types';

const text = (value: string, fontAttributes = {}, link?: string) => ({ type: 'text' as const, text: value, fontAttributes, ...(link ? { link } : {}) });

/** A document with every construct the model has, the way the server reads one. */
const rich: DocumentContent = [
  { kind: 'heading1', runs: [text('Quarterly report')] },
  { kind: 'heading2', runs: [text('Summary')] },
  {
    kind: 'paragraph',
    runs: [
      text('Plain '),
      text('bold', { bold: true }),
      text(' '),
      text('italic', { italic: true }),
      text(' '),
      text('all', { bold: true, italic: true, underline: true, color: '#ff0000', fontSize: 15, fontFamily: 'Liberation Serif' }),
      text(' '),
      text('the source', {}, 'https://example.com/report'),
      { type: 'image', address: '/api/v1/file-entries/abc/document-images/7451086927c7208c2b9fc2520bdb0f3a.png', width: 40, height: 30 },
    ],
  },
  {
    kind: 'list',
    runs: [],
    ordered: false,
    items: [{ runs: [text('Apples')], subItems: [{ runs: [text('Green')], subItems: [{ runs: [text('Granny Smith')] }] }] }, { runs: [text('Pears')] }],
  },
  { kind: 'list', runs: [], ordered: true, items: [{ runs: [text('First')] }, { runs: [text('Second')] }] },
  { kind: 'blockquote', runs: [text('Quoted')] },
  { kind: 'code', runs: [text('const a = 1;')] },
  { kind: 'paragraph', runs: [] },
];

describe('Delta ↔ sections', () => {
  it('round-trips sections through a Delta unchanged', () => {
    expect(deltaToSections(sectionsToDelta(rich))).toEqual(rich);
  });

  it("writes Quill's flat lists with indents, and line formats on the newline", () => {
    const { ops } = sectionsToDelta(rich);
    expect(ops).toContainEqual({ insert: 'Quarterly report' });
    expect(ops).toContainEqual({ insert: '\n', attributes: { header: 1 } });
    expect(ops).toContainEqual({ insert: '\n', attributes: { list: 'bullet', indent: 2 } });
    expect(ops).toContainEqual({ insert: '\n', attributes: { list: 'ordered' } });
    expect(ops).toContainEqual({
      insert: { image: '/api/v1/file-entries/abc/document-images/7451086927c7208c2b9fc2520bdb0f3a.png' },
      attributes: { width: '40', height: '30' },
    });
    expect(ops).toContainEqual({
      insert: 'all',
      attributes: { bold: true, italic: true, underline: true, color: '#ff0000', size: '15px', font: 'Liberation Serif' },
    });
  });

  it('round-trips a Delta as the editor makes it', () => {
    const delta = {
      ops: [
        { insert: 'Title' },
        { insert: '\n', attributes: { header: 1 } },
        { insert: 'Hello ' },
        { insert: 'world', attributes: { bold: true, size: '24px' } },
        // Quill keeps adjacent plain inserts as one (Delta's compact form).
        { insert: '\none' },
        { insert: '\n', attributes: { list: 'ordered' } },
        { insert: 'one.a' },
        { insert: '\n', attributes: { list: 'ordered', indent: 1 } },
        { insert: 'two' },
        { insert: '\n', attributes: { list: 'ordered' } },
      ],
    };
    expect(sectionsToDelta(deltaToSections(delta))).toEqual(delta);
  });

  it('drops links of other protocols and normalises colours', () => {
    const sections = deltaToSections({
      ops: [
        { insert: 'x', attributes: { link: 'javascript:alert(1)', color: 'rgb(255, 0, 16)' } },
        { insert: 'y', attributes: { link: 'tel:+90555' } },
        { insert: '\n' },
      ],
    });
    expect(sections).toEqual([{ kind: 'paragraph', runs: [text('x', { color: '#ff0010' }), text('y', {}, 'tel:+90555')] }]);
    expect(normaliseColor('#ABC')).toBe('#aabbcc');
    expect(normaliseColor('red')).toBeNull();
  });

  it('starts a new list where numbered and bulleted alternate at the top level', () => {
    const sections = deltaToSections({
      ops: [{ insert: 'a' }, { insert: '\n', attributes: { list: 'bullet' } }, { insert: 'b' }, { insert: '\n', attributes: { list: 'ordered' } }],
    });
    expect(sections.map((s) => [s.kind, s.ordered])).toEqual([
      ['list', false],
      ['list', true],
    ]);
  });

  it('survives a real Quill editor: formats registered for every construct, foreign pasted images left out', () => {
    registerEditorFormats();
    const host = document.createElement('div');
    document.body.append(host);
    const quill = new Quill(
      host,
      editorOptions(async () => []),
    );
    installPasteRules(quill);
    quill.setContents(sectionsToDelta(rich).ops as never);
    expect(deltaToSections(quill.getContents())).toEqual(rich);

    quill.setContents([], 'silent');
    quill.clipboard.dangerouslyPasteHTML(
      '<p>Hi <img src="https://evil.example/x.png"><img src="/api/v1/file-entries/abc/preview"><a href="javascript:alert(1)">bad</a><script>alert(1)</script></p>',
    );
    const pasted = deltaToSections(quill.getContents());
    expect(pasted).toEqual([{ kind: 'paragraph', runs: [text('Hi '), { type: 'image', address: '/api/v1/file-entries/abc/preview' }, text('bad')] }]);
    host.remove();
  });
});
