import { expect, inject } from 'vitest';
import { violationsOfAnswer } from './contract.ts';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/**
 * Waits for a mail to `to` newer than `since` in the server's development outbox (the suite's server
 * unless `baseURL` names a spec's own).
 */
export async function waitForMail(
  to: string,
  subject: RegExp,
  since = new Date(0),
  baseURL = inject('baseURL'),
): Promise<OutboxMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${baseURL}/dev/outbox.json`);
    const mails = (await res.json()) as OutboxMail[];
    const found = mails.find(
      (m) => m.to === to.toLowerCase() && subject.test(m.subject) && new Date(m.created_at) >= since,
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to} in the outbox`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export const otpFrom = (mail: OutboxMail): string => {
  const code = /code is (\d{6})/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  return code!;
};

/**
 * A call to the product's API (the suite's server unless `baseURL` names a spec's own). A test that
 * closes registration for a moment does so under the settings lock (support/settings.ts), so a
 * sign-up here never meets it closed.
 */
export async function api(
  path: string,
  init: { method?: string; body?: unknown; token?: string; deviceId?: string } = {},
  baseURL = inject('baseURL'),
) {
  const res = await fetch(`${baseURL}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.deviceId ? { 'x-device-id': init.deviceId } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const contentType = res.headers.get('content-type') ?? undefined;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {}
  // The spec's own calls are held to the OpenAPI document as the browser's are (support/contract.ts).
  const broken = await violationsOfAnswer({
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    url: `${baseURL}${path}`,
    status: res.status,
    contentType,
    body: /json/.test(contentType ?? '') ? body : text,
  });
  if (broken.length > 0) throw new Error(`An answer broke the OpenAPI document:\n${broken.join('\n')}`);
  return { status: res.status, body: body as Record<string, unknown> };
}

export const demoPassword = 'e2e-demo-password';

/**
 * Signs in through the API (password + OTP from the outbox) and returns a token for admin calls, on the
 * suite's server unless `baseURL` names a spec's own. Two files that sign the same account in at the
 * same moment (demo-admin, say) each get a code by mail and may each read the other's, of which only
 * one is taken: the one refused signs in again, with a new code, up to three times.
 */
export async function apiSignIn(email: string, password: string, baseURL = inject('baseURL')) {
  for (let attempt = 1; ; attempt += 1) {
    const deviceId = crypto.randomUUID();
    const since = new Date(Date.now() - 1000);
    const login = await api('/api/login', { body: { email, password }, deviceId }, baseURL);
    if (login.status === 200) return login.body.token as string;
    expect(login.status).toBe(403);
    const mail = await waitForMail(email, /verification code/, since, baseURL);
    const verify = await api(
      '/api/verify-email-otp',
      { body: { email, otp: otpFrom(mail) }, deviceId },
      baseURL,
    );
    if (verify.status === 422 && attempt < 3) continue;
    expect(verify.status).toBe(200);
    return verify.body.token as string;
  }
}
