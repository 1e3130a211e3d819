import { escapeHtml } from '../../platform/mail';

export function resetPasswordMail(firstName: string, link: string, ttlMs: number) {
  const minutes = Math.round(ttlMs / 60_000);
  const subject = 'Reset your Opsdeck password';
  const text = [
    `Hello ${firstName},`,
    '',
    'Someone asked to reset the password of your Opsdeck account. To choose a new password, open:',
    link,
    '',
    `The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this mail.`,
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(firstName)},</p>
<p>Someone asked to reset the password of your Opsdeck account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this mail.</p>`;
  return { subject, text, html };
}
