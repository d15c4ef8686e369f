import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

// A local SMTP sink for the end-to-end run: the server sends real SMTP to it
// and each message lands as a JSON file in the run's data directory, where
// the specs (in their own worker processes) read the links out of it.

export function sinkDir(dataDir: string): string {
  return join(dataDir, 'smtp-sink');
}

interface StoredMail {
  to: string[];
  raw: string;
}

export async function startMailSink(port: number, dataDir: string): Promise<SMTPServer> {
  const dir = sinkDir(dataDir);
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no self-signed STARTTLS for the client to refuse.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: StoredMail = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') };
        count += 1;
        writeFileSync(join(dir, `${Date.now()}-${String(count).padStart(5, '0')}.json`), JSON.stringify(mail));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The bodies of the mails sent to `to`, oldest first. */
export function mailsTo(dataDir: string, to: string): string[] {
  const dir = sinkDir(dataDir);
  let files: string[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return files
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as StoredMail)
    .filter((mail) => mail.to.includes(to.toLowerCase()))
    .map((mail) => decodeQuotedPrintable(mail.raw));
}

/** The first link containing `pathPart` in the newest mail to `to`, or null. */
export function latestLink(dataDir: string, to: string, pathPart: string): string | null {
  const last = mailsTo(dataDir, to).at(-1);
  if (!last) return null;
  const escaped = pathPart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = last.match(new RegExp(`https?://[^\\s"<>]*${escaped}[^\\s"<>]*`));
  return match ? match[0].replace(/&amp;/g, '&') : null;
}
