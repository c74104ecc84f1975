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

/** Someone registered with an address that already has an account: only its owner hears of it. */
export function registerAttemptMail(to: string, name: string, loginUrl: string, forgotUrl: string): Mail {
  return {
    to,
    subject: 'Someone tried to register with your e-mail address',
    text:
      `Hello ${name},\n\nSomeone tried to open a new Footprint account with your e-mail address, which ` +
      `already has an account, so no new account was made.\n\nIf it was you, sign in: ${loginUrl}\n` +
      `If you forgot your password, reset it: ${forgotUrl}\n\nIf it was not you, you need do nothing.\n`,
    html: layout(
      'Someone tried to register with your address',
      `<p>Hello ${escapeHtml(name)},</p><p>Someone tried to open a new Footprint account with your e-mail ` +
        `address, which already has an account, so no new account was made.</p>` +
        `<p>If it was you, <a href="${escapeHtml(loginUrl)}">sign in</a>, or ` +
        `<a href="${escapeHtml(forgotUrl)}">reset your password</a> if you forgot it.</p>` +
        `<p>If it was not you, you need do nothing.</p>`,
    ),
  };
}

export function approvedMail(to: string, name: string, loginUrl: string): Mail {
  return {
    to,
    subject: 'Your Footprint account is approved',
    text:
      `Hello ${name},\n\nAn administrator has approved your Footprint account. You can sign in now:\n\n` +
      `${loginUrl}\n\nThe first sign-in from a new device asks for a code that we e-mail to you.\n`,
    html: layout(
      'Your account is approved',
      `<p>Hello ${escapeHtml(name)},</p><p>An administrator has approved your Footprint account.</p>` +
        `<p><a href="${escapeHtml(loginUrl)}">Sign in to Footprint</a></p>` +
        `<p>The first sign-in from a new device asks for a code that we e-mail to you.</p>`,
    ),
  };
}

export function rejectedMail(to: string, name: string, reason: string | undefined): Mail {
  const because = reason ? `\n\nReason given: ${reason}` : '';
  return {
    to,
    subject: 'Your Footprint registration was not approved',
    text:
      `Hello ${name},\n\nAn administrator has reviewed your registration and did not approve it, ` +
      `so this account cannot sign in.${because}\n\nIf you think this is a mistake, contact your administrator.\n`,
    html: layout(
      'Your registration was not approved',
      `<p>Hello ${escapeHtml(name)},</p><p>An administrator has reviewed your registration and did not ` +
        `approve it, so this account cannot sign in.</p>` +
        (reason ? `<p>Reason given: ${escapeHtml(reason)}</p>` : '') +
        `<p>If you think this is a mistake, contact your administrator.</p>`,
    ),
  };
}
