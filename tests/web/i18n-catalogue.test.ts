import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { enLines } from '../../server/modules/localizations/lines/en';
import { trLines } from '../../server/modules/localizations/lines/tr';

/**
 * Every text the app shows goes through the line catalogue. This reads the
 * source rather than rendering routes: popovers, hover popups, dialogs, error
 * and empty states are all covered without having to reach them, which a walk
 * of the routes in Turkish would not do (the bell's "View all" and the AI
 * popup only exist after an interaction).
 */

// Attributes a person reads or hears: a literal there is never translated.
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'description', 'aria-description', 'aria-valuetext']);

// Properties whose literal is shown through t() elsewhere.
const LABEL_PROPERTIES = new Set(['label', 'title', 'message', 'description', 'heading', 'placeholder']);

// Text that is the same in every language: symbols, numbers, and product names.
// Addresses and paths (examples in placeholders) read the same too.
const LANGUAGE_NEUTRAL =
  /^[\s\d.,:;!?()[\]{}%/×·•…–—+*=<>|&#@'"’“”⠿-]*$|^(?:©|V|PNG|JPEG|SQL|Stripe|Google|Facebook|GitHub|WebDAV|PDF|URL|API|ID|Ctrl\+S|px)$|^(?:https?:\/\/|\/)[\w./:-]*$/u;

interface Finding {
  file: string;
  line: number;
  text: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

function scan(file: string) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const keys: Finding[] = [];
  const literals: Finding[] = [];
  const at = (node: ts.Node, value: string): Finding => ({
    file: path.relative(process.cwd(), file),
    line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    text: value,
  });
  const visit = (node: ts.Node) => {
    // t('…'), translate('…') and i18n.t('…'): the key must be a catalogue line.
    if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      const first = node.arguments[0]!;
      if ((name === 't' || name === 'translate') && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        keys.push(at(first, first.text));
      }
    }
    // Labels kept in constants (views, menus, empty states) reach t() through a variable.
    if (
      ts.isPropertyAssignment(node) &&
      LABEL_PROPERTIES.has(node.name.getText(source)) &&
      ts.isStringLiteral(node.initializer) &&
      /\p{L}{2}/u.test(node.initializer.text)
    ) {
      keys.push(at(node.initializer, node.initializer.text));
    }
    // Text between tags.
    if (ts.isJsxText(node)) {
      const value = node.text.replace(/\s+/g, ' ').trim();
      if (value && !LANGUAGE_NEUTRAL.test(value)) literals.push(at(node, value));
    }
    // A literal string in an attribute a person reads.
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      let value: string | undefined;
      if (ts.isStringLiteral(node.initializer)) value = node.initializer.text;
      else if (ts.isJsxExpression(node.initializer) && node.initializer.expression && ts.isStringLiteralLike(node.initializer.expression)) {
        value = node.initializer.expression.text;
      }
      if (READ_ATTRIBUTES.has(name) && value !== undefined && value.trim() && !LANGUAGE_NEUTRAL.test(value)) literals.push(at(node, `${name}="${value}"`));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { keys, literals };
}

const scanned = sourceFiles(path.resolve('src')).map(scan);
const show = (f: Finding) => `${f.file}:${f.line} ${f.text}`;

describe('the line catalogue covers what the app shows', () => {
  it('finds the texts it checks', () => {
    expect(scanned.flatMap((s) => s.keys).length).toBeGreaterThan(500);
  });

  it('has an English and a Turkish line for every key the app translates', () => {
    const missing = scanned.flatMap((s) => s.keys).filter((k) => !(k.text in enLines) || !(k.text in trLines));
    expect(missing.map(show)).toEqual([]);
  });

  it('renders no English text or screen-reader label outside the catalogue', () => {
    expect(scanned.flatMap((s) => s.literals).map(show)).toEqual([]);
  });
});
