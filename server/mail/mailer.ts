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

/**
 * Sends through SMTP when MAIL_URL is set. The embedded default has no mail
 * server, so each message is written to DATA_DIR/mail as an .eml file (and
 * logged) where a new user can open it and click its link.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly config: Config['mail'],
    private readonly log: MailLogger,
  ) {
    this.transport = config.url ? nodemailer.createTransport(config.url) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.config.from, ...message });
    if (this.config.url) {
      this.log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      return;
    }
    await fs.mkdir(this.config.dir, { recursive: true });
    const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    const file = path.join(this.config.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
    await fs.writeFile(file, (info as { message: Buffer }).message);
    this.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (set MAIL_URL to send by SMTP)');
  }
}
