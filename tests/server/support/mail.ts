import fs from 'node:fs/promises';
import path from 'node:path';

export interface SavedMail {
  file: string;
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** The .eml files the embedded mailer wrote for one recipient, oldest first. */
export async function mailsTo(dataDir: string, to: string): Promise<SavedMail[]> {
  const dir = path.join(dataDir, 'mail');
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const result: SavedMail[] = [];
  for (const name of files) {
    const raw = await fs.readFile(path.join(dir, name), 'utf8');
    if (!new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(raw)) continue;
    const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    result.push({ file: name, raw, text });
  }
  return result;
}

/** The first link in the newest mail to `to` whose path contains `pathPart`. */
export async function linkFromMail(dataDir: string, to: string, pathPart: string): Promise<URL> {
  const mails = await mailsTo(dataDir, to);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail to ${to}`);
  const match = last.text.match(new RegExp(`https?://[^\\s"<>]*${pathPart}[^\\s"<>]*`));
  if (!match) throw new Error(`no ${pathPart} link in mail to ${to}`);
  return new URL(match[0].replace(/&amp;/g, '&'));
}
