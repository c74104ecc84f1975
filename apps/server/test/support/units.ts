// What the units, retention and review tests share: a JSON call as a signed-in session, and a live
// account signed in on a trusted device.
import { createUser, newDeviceId, signIn, type TestApp } from './app.ts';

export type Session = Record<string, string>;

/** `call(method, url, session, body?)`: the status and the parsed answer. */
export const caller =
  (t: () => TestApp) => async (method: string, url: string, session: Session, body?: unknown) => {
    const res = await t().app.inject({
      method: method as 'GET',
      url,
      headers: { ...session, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };

/** A live account (an admin with `role`), signed in: its row, password and session headers. */
export async function signedInAccount(
  t: TestApp,
  options: { role?: 'user' | 'admin'; credits?: number } = {},
) {
  const deviceId = newDeviceId();
  const account = await createUser(t.db, {
    appMode: 'live',
    role: options.role ?? 'user',
    ...(options.credits ? { credits: options.credits } : {}),
    trustedDevice: deviceId,
  });
  const { token } = await signIn(t, account.email, account.password, deviceId);
  return { ...account, session: { authorization: `Bearer ${token}`, 'x-device-id': deviceId } as Session };
}
