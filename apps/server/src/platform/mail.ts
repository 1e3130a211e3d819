import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export type MailMessage = { to: string; subject: string; text: string; html: string };

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A mail of plain paragraphs, as text and as HTML (each paragraph escaped). */
export function paragraphsMail(paragraphs: readonly string[]): Pick<MailMessage, 'text' | 'html'> {
  return {
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  };
}

export type Mailer = {
  send: (message: MailMessage) => Promise<void>;
  /** Where mail goes, for the start-up banner: an SMTP host or the outbox folder. */
  describe: () => string;
};

/**
 * Real transports only: SMTP when SMTP_URL is set, otherwise nodemailer builds the full RFC 822
 * message and it is written as an .eml file under DATA_DIR/mail. The log names the recipient and
 * the file, never the body: reset mails carry a secret.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    const host = new URL(smtpUrl).host;
    return {
      describe: () => `SMTP ${host}`,
      async send(message) {
        await transport.sendMail({ from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'mail sent over SMTP');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: () => `outbox ${outboxDir}`,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox');
    },
  };
}
