import { escapeHtml } from '../../http/html.ts';
import type { Mail } from './mailer.ts';

const layout = (title: string, body: string) =>
  `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a">` +
  `<h2 style="color:#0e7490">Footprint</h2><h3>${escapeHtml(title)}</h3>${body}` +
  `<p style="color:#64748b;font-size:12px">If you did not request this, ignore this e-mail and tell your administrator.</p>` +
  `</body></html>`;

export function otpMail(to: string, name: string, code: string, minutes: number): Mail {
  return {
    to,
    subject: 'Your Footprint verification code',
    text:
      `Hello ${name},\n\nYour one-time verification code is ${code}.\n` +
      `It expires in ${minutes} minutes. Enter it to trust this device.\n\n` +
      `If you did not try to sign in, change your password and tell your administrator.\n`,
    html: layout(
      'Verify your sign-in',
      `<p>Hello ${escapeHtml(name)},</p><p>Your one-time verification code is</p>` +
        `<p style="font-size:28px;letter-spacing:6px;font-weight:bold">${code}</p>` +
        `<p>It expires in ${minutes} minutes.</p>`,
    ),
  };
}

export function resetMail(to: string, name: string, link: string, minutes: number): Mail {
  return {
    to,
    subject: 'Reset your Footprint password',
    text:
      `Hello ${name},\n\nA password reset was requested for your account.\n` +
      `Open this link to choose a new password (valid for ${minutes} minutes):\n\n${link}\n`,
    html: layout(
      'Reset your password',
      `<p>Hello ${escapeHtml(name)},</p><p>A password reset was requested for your account.</p>` +
        `<p><a href="${escapeHtml(link)}">Choose a new password</a> (valid for ${minutes} minutes).</p>`,
    ),
  };
}
