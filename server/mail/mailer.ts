import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailLogger {
  info(obj: object, msg: string): void;
}

/** What the admin set in the settings (empty: the environment's MAIL_URL / MAIL_FROM). */
export interface MailOverrides {
  url: string;
  from: string;
}

/**
 * Sends through SMTP when an SMTP address is set (the admin's `mail.url`
 * setting, else MAIL_URL). The embedded default has no mail server, so each
 * message is written to DATA_DIR/mail as an .eml file (and logged) where a new
 * user can open it and click its link. The settings are read on every send, so
 * a change in the admin area takes effect without a restart.
 */
export class Mailer {
  private readonly fileTransport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private smtp: { url: string; transport: Transporter } | null = null;
  private written = 0;

  constructor(
    private readonly config: Config['mail'],
    private readonly log: MailLogger,
    private readonly overrides: () => Promise<MailOverrides> = async () => ({ url: '', from: '' }),
  ) {}

  /** The SMTP address in use ('' when mail goes to files), and the sender. */
  async current(): Promise<{ url: string; from: string }> {
    const set = await this.overrides();
    return { url: set.url || this.config.url || '', from: set.from || this.config.from };
  }

  private transportFor(url: string): Transporter {
    if (!url) return this.fileTransport;
    if (this.smtp?.url !== url) {
      this.smtp?.transport.close();
      this.smtp = { url, transport: nodemailer.createTransport(url) };
    }
    return this.smtp.transport;
  }

  async send(message: MailMessage): Promise<void> {
    const { url, from } = await this.current();
    const info = await this.transportFor(url).sendMail({ from, ...message });
    if (url) {
      this.log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      return;
    }
    await fs.mkdir(this.config.dir, { recursive: true });
    const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    // Queued mails go out in parallel, several to one address within a millisecond: the count keeps each its own
    // file (and in order), the random part keeps processes sharing DATA_DIR apart.
    this.written += 1;
    const unique = `${String(this.written).padStart(6, '0')}-${randomBytes(3).toString('hex')}`;
    const file = path.join(this.config.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${unique}-${safeTo}.eml`);
    await fs.writeFile(file, (info as { message: Buffer }).message);
    this.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (set MAIL_URL to send by SMTP)');
  }
}
