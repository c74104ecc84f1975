/**
 * The server's capture key: an Ed25519 key derived from APP_KEY (its own HKDF purpose, apart from the
 * audit checkpoints' key). It signs the exact bytes of every capture manifest; its public half is
 * published at CAPTURE_KEY_PATH and put in every capture ZIP and evidence bundle, so that anyone can
 * check a manifest without this server:
 *
 *   openssl pkeyutl -verify -pubin -inkey capture-signing-key.pem -rawin -in manifest.json -sigfile manifest.sig
 *
 * The key id is the key's JWK thumbprint (RFC 7638, SHA-256, base64url).
 */
import { createHash, sign, verify } from 'node:crypto';
import { CAPTURE_KEY_PATH } from '@footprint/domain';
import { ed25519FromAppKey } from '../../../security/crypto.ts';

export const CAPTURE_KEY_INFO = 'footprint capture manifest v1';

export interface CaptureSigner {
  /** RFC 7638 thumbprint of the public key. */
  keyId: string;
  /** The public key, SubjectPublicKeyInfo in PEM. */
  publicKeyPem: string;
  /** Where the key is published: APP_URL + CAPTURE_KEY_PATH. */
  publishedAt: string;
  sign(bytes: Buffer): Buffer;
  verify(bytes: Buffer, signature: Buffer): boolean;
}

export function createCaptureSigner(appKey: string, appUrl: string): CaptureSigner {
  const { privateKey, publicKey } = ed25519FromAppKey(appKey, CAPTURE_KEY_INFO);
  const jwk = publicKey.export({ format: 'jwk' });
  // RFC 7638: the required members in lexicographic order, no white space.
  const thumbprint = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return {
    keyId: createHash('sha256').update(thumbprint).digest('base64url'),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    publishedAt: new URL(CAPTURE_KEY_PATH, appUrl).href,
    sign: (bytes) => sign(null, bytes, privateKey),
    verify: (bytes, signature) => signature.length === 64 && verify(null, bytes, publicKey, signature),
  };
}
