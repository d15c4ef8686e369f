import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Mailer } from '../../../server/mail/mailer.js';
import { mailsTo } from '../support/mail.js';

/** Without MAIL_URL each message becomes an .eml file under DATA_DIR/mail. */
describe('mail written to files', () => {
  const dataDir = path.join(os.tmpdir(), `mail-files-${process.pid}-${Date.now()}`);
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('keeps every message of a burst to one address (queued mail goes out in parallel)', async () => {
    const mailer = new Mailer({ url: undefined, from: 'Drive <drive@example.com>', dir: path.join(dataDir, 'mail') }, { info: () => undefined });
    const subjects = Array.from({ length: 8 }, (_, i) => `Message ${i}`);
    await Promise.all(subjects.map((subject) => mailer.send({ to: 'burst@example.com', subject, text: subject, html: `<p>${subject}</p>` })));
    const mails = await mailsTo(dataDir, 'burst@example.com');
    expect(mails.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)![1]).sort()).toEqual(subjects);
  });
});
