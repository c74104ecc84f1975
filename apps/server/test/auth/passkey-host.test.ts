// Passkeys and the address the page is open at: the start banner prints APP_URL (on the embedded
// default http://localhost:$PORT), the one origin passkeys are registered and used at; a page open at
// another (127.0.0.1 above all: an IP address is never a WebAuthn RP ID) is told where they work.
import { messages } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressLines } from '../../src/start-banner.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';
import { softwareAuthenticator } from '../support/authenticator.ts';

let t: TestApp;
let who: { token: string; deviceId: string };
let user: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  // No APP_URL: the default of `npm start`, from the port.
  t = await createTestApp({ env: { APP_URL: '', PORT: '3000' } });
  user = await createUser(t.db, { appMode: 'live' });
  who = await signIn(t, user.email, user.password);
});
afterAll(() => t.close());

/** A browser's POST from a page open at `origin`. */
const from = (origin: string | undefined, url: string, body: unknown = {}, as = who) => {
  const request = json(body, as.deviceId, as.token);
  return t.app.inject({
    method: 'POST',
    url,
    payload: request.payload,
    headers: { ...request.headers, ...(origin ? { origin } : {}) },
  });
};

/** The address the banner tells people to open, read from the banner's own line. */
const bannerAddress = () => {
  const [first] = addressLines(t.config.appUrl, 'http://127.0.0.1:3000');
  const printed = /^Footprint is running at (\S+)$/.exec(first ?? '')?.[1];
  expect(printed, first).toBeTruthy();
  return printed!;
};

describe('the start banner and the passkeys’ host', () => {
  it('prints the address passkeys are registered at, and says it listens on 127.0.0.1', () => {
    expect(bannerAddress()).toBe('http://localhost:3000');
    expect(addressLines(t.config.appUrl, 'http://127.0.0.1:3000')).toEqual([
      'Footprint is running at http://localhost:3000',
      '  (listening on 127.0.0.1:3000; open http://localhost:3000 itself: passkeys work only there)',
    ]);
    // Behind a proxy at a public name the banner prints that name; alike hosts need no second line.
    expect(addressLines('https://footprint.example.org', 'http://127.0.0.1:3000')[0]).toBe(
      'Footprint is running at https://footprint.example.org',
    );
    expect(addressLines('http://localhost:3000', 'http://localhost:3000')).toHaveLength(1);
  });

  it('adds a passkey from a page open at the banner’s address', async () => {
    const address = bannerAddress();
    const options = await from(address, '/api/security/passkeys/options');
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().rp.id).toBe(new URL(address).hostname);
    const authenticator = softwareAuthenticator(address);
    const added = await from(address, '/api/security/passkeys', {
      name: 'Banner address',
      response: authenticator.register(options.json()),
    });
    expect(added.statusCode, added.body).toBe(201);
  });

  it('tells a page open at 127.0.0.1 where passkeys work, before any ceremony', async () => {
    const wrong = messages.security.passkeys.wrongHost('http://localhost:3000', '127.0.0.1:3000');
    expect(wrong).toBe(
      'Passkeys work only at http://localhost:3000 — this page is open at 127.0.0.1:3000. Open http://localhost:3000 and try again.',
    );
    for (const url of ['/api/security/passkeys/options', '/api/security/passkeys']) {
      const res = await from(
        'http://127.0.0.1:3000',
        url,
        url.endsWith('options') ? {} : { name: 'x', response: {} },
      );
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        message: wrong,
        errors: { response: [wrong] },
        passkey_url: 'http://localhost:3000',
      });
    }
    // Another port of the same host is another origin too.
    const port = await from('http://localhost:5173', '/api/security/passkeys/options');
    expect(port.json().message).toBe(
      messages.security.passkeys.wrongHost('http://localhost:3000', 'localhost:5173'),
    );
    // A script sends no Origin: it is not refused for it.
    expect((await from(undefined, '/api/security/passkeys/options')).statusCode).toBe(200);
  });

  it('says the same on the sign-in’s passkey step from 127.0.0.1', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, who.deviceId),
    });
    expect(login.statusCode, login.body).toBe(403);
    const token = login.json().second_factor_token as string;
    expect(token).toBeTruthy();
    const wrong = messages.security.passkeys.wrongHost('http://localhost:3000', '127.0.0.1:3000');
    const options = await from('http://127.0.0.1:3000', '/api/login/second-factor/passkey-options', {
      token,
    });
    expect(options.statusCode).toBe(400);
    expect(options.json().errors.response).toEqual([wrong]);
    const finish = await from('http://127.0.0.1:3000', '/api/login/second-factor', {
      token,
      passkey: { id: 'a' },
    });
    expect(finish.statusCode).toBe(400);
    expect(finish.json().message).toBe(wrong);
    const right = await from(bannerAddress(), '/api/login/second-factor/passkey-options', { token });
    expect(right.statusCode, right.body).toBe(200);
  });
});
