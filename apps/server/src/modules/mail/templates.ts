import { messages, type WatchChanges } from '@footprint/domain';
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

/** At most this many changes are listed in a watch e-mail; the watchlist page has them all. */
const MAX_MAILED_CHANGES = 20;

/**
 * A watched search found something new (or something gone). Only what the user's own search found is
 * listed: the changes of the facts it compares, named as the watchlist page names them.
 */
export function watchChangedMail(
  to: string,
  name: string,
  watch: { query: string; changes: WatchChanges; link: string },
): Mail {
  const w = messages.watchlist;
  const lines = watch.changes.items.slice(0, MAX_MAILED_CHANGES).map((item) => {
    // A username's account reads by its site's name: 'New account: GitHub'.
    if (item.type === 'account') {
      const site = item.label ?? item.value;
      return item.change === 'added' ? w.accountAdded(site) : w.accountRemoved(site);
    }
    const mark = item.change === 'added' ? w.added : w.removed;
    return `${mark} ${(w.factTypes[item.type] ?? item.type).toLowerCase()}: ${item.label ?? item.value}`;
  });
  if (watch.changes.total) lines.push(w.totalMoved(watch.changes.total.before, watch.changes.total.after));
  const more = watch.changes.items.length - MAX_MAILED_CHANGES;
  const tail = more > 0 ? `…and ${more} more on the watchlist.` : '';
  return {
    to,
    subject: `Footprint watchlist: a change for ${watch.query}`,
    text:
      `Hello ${name},\n\nYour watched search ${watch.query} ran again and found a change:\n\n` +
      `${lines.map((line) => `  - ${line}`).join('\n')}\n${tail ? `  ${tail}\n` : ''}\n` +
      `See it, and open the run's result, on your watchlist:\n${watch.link}\n`,
    html: layout(
      'A watched search changed',
      `<p>Hello ${escapeHtml(name)},</p><p>Your watched search <strong>${escapeHtml(watch.query)}</strong> ` +
        `ran again and found a change:</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` +
        (tail ? `<p>${escapeHtml(tail)}</p>` : '') +
        `<p><a href="${escapeHtml(watch.link)}">Open your watchlist</a> to see it and the run's result.</p>`,
    ),
  };
}

/** A watch stopped because the balance no longer covers a run; sent once per stop. */
export function watchStoppedMail(to: string, name: string, query: string, link: string): Mail {
  return {
    to,
    subject: 'Footprint watchlist: a watch stopped, out of credits',
    text:
      `Hello ${name},\n\nYour watched search ${query} could not run: your credits ran out, so the watch ` +
      `is stopped and will not run again by itself.\n\nAfter topping up, resume it on your watchlist:\n${link}\n`,
    html: layout(
      'A watch stopped: out of credits',
      `<p>Hello ${escapeHtml(name)},</p><p>Your watched search <strong>${escapeHtml(query)}</strong> could ` +
        `not run: your credits ran out, so the watch is stopped and will not run again by itself.</p>` +
        `<p>After topping up, <a href="${escapeHtml(link)}">resume it on your watchlist</a>.</p>`,
    ),
  };
}

/** A sensitive search waits for the supervisor's approval (modules/approvals). */
export function approvalRequestedMail(
  to: string,
  name: string,
  request: {
    requester: string;
    search: string;
    caseReference: string | null;
    legalBasis: string | null;
    link: string;
  },
): Mail {
  const basis = [
    `Case: ${request.caseReference ?? 'none'}`,
    `Legal basis: ${request.legalBasis ?? 'none stated'}`,
  ];
  return {
    to,
    subject: `Footprint: ${request.requester} asks to run a ${request.search}`,
    text:
      `Hello ${name},\n\n${request.requester} asks to run a sensitive search: ${request.search}.\n` +
      `${basis.join('\n')}\n\nIt does not run until a supervisor approves it. Approve or reject it here:\n${request.link}\n`,
    html: layout(
      'A sensitive search waits for your approval',
      `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(request.requester)} asks to run a sensitive search: ` +
        `<strong>${escapeHtml(request.search)}</strong>.</p><ul>${basis.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` +
        `<p>It does not run until a supervisor approves it. <a href="${escapeHtml(request.link)}">Approve or reject it</a>.</p>`,
    ),
  };
}

/** The requester's sensitive search was decided: approved (and run, or not) or rejected. */
export function approvalDecidedMail(
  to: string,
  name: string,
  decision: { outcome: string; search: string; decider: string | null; note: string | null; link: string },
): Mail {
  const note = decision.note ? `Note: ${decision.note}` : '';
  // Without a decider nobody decided it: it expired, or the server stopped before it answered.
  const how = decision.decider
    ? `was decided by ${decision.decider}: `
    : decision.outcome === 'expired'
      ? 'was not decided in time, so nothing was run or charged: '
      : 'ended: ';
  return {
    to,
    subject: `Footprint: your ${decision.search}: ${decision.outcome.toLowerCase()}`,
    text:
      `Hello ${name},\n\nYour request to run ${decision.search} ${how}` +
      `${decision.outcome}.\n${note ? `${note}\n` : ''}\nSee it here:\n${decision.link}\n`,
    html: layout(
      `Your request: ${decision.outcome}`,
      `<p>Hello ${escapeHtml(name)},</p><p>Your request to run <strong>${escapeHtml(decision.search)}</strong> ` +
        `${escapeHtml(how)}<strong>${escapeHtml(decision.outcome)}</strong>.</p>` +
        (note ? `<p>${escapeHtml(note)}</p>` : '') +
        `<p><a href="${escapeHtml(decision.link)}">See it in Footprint</a>.</p>`,
    ),
  };
}
