import type { SecondFactorRequest, SecondFactorRequiredResponse, TokenResponse } from '@footprint/domain';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { api } from '../../../lib/api.ts';
import { refusalBody } from '../../../lib/field-errors.ts';

/** The second-factor challenge inside a login failure (403 second_factor_required), if that is what it is. */
export function secondFactorChallenge(error: unknown): SecondFactorRequiredResponse | null {
  const body = refusalBody(error, 403) as Partial<SecondFactorRequiredResponse> | null;
  if (body?.second_factor_required !== true || typeof body.second_factor_token !== 'string') return null;
  return {
    second_factor_required: true,
    methods: Array.isArray(body.methods) ? body.methods : [],
    email: typeof body.email === 'string' ? body.email : '',
    second_factor_token: body.second_factor_token,
    expires_at: typeof body.expires_at === 'string' ? body.expires_at : '',
    message: typeof body.message === 'string' ? body.message : '',
  };
}

/** POST /api/login/second-factor with an authenticator code or a recovery code. */
export const finishSignIn = (body: SecondFactorRequest) =>
  api.post<TokenResponse>('/api/login/second-factor', body);

/** Asks the server for a challenge, lets the browser's passkey answer it, and finishes the sign-in. */
export async function finishSignInWithPasskey(token: string): Promise<TokenResponse> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(
    '/api/login/second-factor/passkey-options',
    { token },
  );
  const passkey = await startAuthentication({ optionsJSON });
  return finishSignIn({ token, passkey: passkey as unknown as SecondFactorRequest['passkey'] });
}
