import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestApp } from './app';

/** The first mail to `to` in the app's .eml outbox (DATA_DIR/mail), waited for up to `timeoutMs`. */
export async function waitForMail(t: Pick<TestApp, 'dataDir'>, to: string, timeoutMs = 5_000): Promise<string> {
  const outbox = path.join(t.dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files) {
      const text = await readFile(path.join(outbox, file), 'utf8');
      if (text.includes(`To: ${to}`)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${to}`);
}

/** The reset key of the link in a password-reset mail (its plain-text part; quoted-printable may fold it). */
export function resetKeyOf(mail: string): string {
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = unfolded.match(/http:\/\/console\.opsdeck\.test\/login\?resetPasswordKey=([A-Za-z0-9_%-]+)/);
  if (!match?.[1]) throw new Error('no reset link in the mail');
  return decodeURIComponent(match[1]);
}

/** Asks for a password reset of `email` and answers the key it mails. */
export async function resetKeyFor(t: Pick<TestApp, 'dataDir' | 'call'>, email: string): Promise<string> {
  await t.call(`/api/user/reset-password?u=${encodeURIComponent(email)}`);
  return resetKeyOf(await waitForMail(t, email));
}
