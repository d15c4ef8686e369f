import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requireDebianBinary } from '../../peers/debian.js';

/**
 * LibreOffice (Debian's libreoffice-writer-nogui) as the real peer of the
 * document tests: it turns HTML fixtures into .docx files the way a user's
 * office suite would, and opens what the server saved. scripts/test.sh
 * installs it before the suites; a focused run installs it here when missing.
 */
export function ensureLibreOffice(): string {
  return requireDebianBinary({ binary: 'soffice', pkg: 'libreoffice-writer-nogui', noRecommends: true });
}

/** One LibreOffice profile per call: two suites converting at once never share (and lock) one. */
async function convert(input: string, filter: string, extension: string): Promise<string> {
  const soffice = ensureLibreOffice();
  const dir = path.dirname(input);
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'lo-profile-'));
  try {
    execFileSync(soffice, ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', filter, '--outdir', dir, input], {
      stdio: 'ignore',
      timeout: 120_000,
    });
  } finally {
    await fs.rm(profile, { recursive: true, force: true });
  }
  return path.join(dir, `${path.basename(input, path.extname(input))}.${extension}`);
}

/** HTML → .docx, as LibreOffice Writer exports it. */
export async function htmlToDocx(html: string, name = 'fixture'): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docx-fixture-'));
  const input = path.join(dir, `${name}.html`);
  await fs.writeFile(input, html);
  const out = await convert(input, 'docx:MS Word 2007 XML', 'docx');
  const bytes = await fs.readFile(out);
  await fs.rm(dir, { recursive: true, force: true });
  return bytes;
}

/** What LibreOffice reads from a .docx, as plain text. */
export async function docxToText(bytes: Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docx-open-'));
  const input = path.join(dir, 'saved.docx');
  await fs.writeFile(input, bytes);
  const out = await convert(input, 'txt:Text', 'txt');
  const text = await fs.readFile(out, 'utf8');
  await fs.rm(dir, { recursive: true, force: true });
  return text;
}
