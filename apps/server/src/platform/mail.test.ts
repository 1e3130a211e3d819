import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app';
import { createMailer } from './mail';

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP peer on a free port, keeping what it is sent. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const message = {
  to: 'someone@example.test',
  subject: 'Hello',
  text: 'secret-body-123',
  html: '<p>secret-body-123</p>',
};

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let outbox: string;
beforeAll(async () => {
  smtp = await startSmtp();
  outbox = await mkdtemp(path.join(tmpdir(), 'opsdeck-outbox-'));
});
afterAll(async () => {
  await smtp.close();
  await rm(outbox, { recursive: true, force: true });
});

function capturingLogger() {
  const lines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { log, lines };
}

describe('mailer', () => {
  it('sends over SMTP when SMTP_URL is set, and logs no body', async () => {
    const { log, lines } = capturingLogger();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Opsdeck <no-reply@opsdeck.test>', outboxDir: outbox, log });
    await mailer.send(message);
    const mail = smtp.received.at(-1);
    expect(mail?.from).toBe('no-reply@opsdeck.test');
    expect(mail?.to).toEqual(['someone@example.test']);
    expect(mail?.raw).toContain('Subject: Hello');
    expect(mail?.raw).toContain('secret-body-123');
    expect(lines.join('')).toContain('someone@example.test');
    expect(lines.join('')).not.toContain('secret-body-123');
    expect(await readdir(outbox)).toEqual([]);
  });

  it('writes an .eml file readable only by its owner otherwise', async () => {
    const { log, lines } = capturingLogger();
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Opsdeck <no-reply@opsdeck.test>',
      outboxDir: outbox,
      log,
    });
    await mailer.send(message);
    const [file] = await readdir(outbox);
    expect(file).toMatch(/\.eml$/);
    const full = path.join(outbox, file!);
    const eml = await readFile(full, 'utf8');
    expect(eml).toContain('To: someone@example.test');
    expect(eml).toContain('secret-body-123');
    expect((await stat(full)).mode & 0o777).toBe(0o600);
    expect(lines.join('')).not.toContain('secret-body-123');
  });

  it('mails the reset link over SMTP from the forgot-password call', async () => {
    const t = await startTestApp({ SMTP_URL: smtp.url });
    try {
      const before = smtp.received.length;
      const result = await t.call('/api/user/reset-password?u=admin%40opsdeck.test');
      expect(result.status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (smtp.received.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const mail = smtp.received.at(-1);
      expect(mail?.to).toEqual(['admin@opsdeck.test']);
      expect(mail?.raw.replace(/=\r?\n/g, '')).toMatch(
        /http:\/\/console\.opsdeck\.test\/login\?resetPasswordKey=3D[A-Za-z0-9_-]{43}/,
      );
    } finally {
      await t.close();
    }
  });
});
