import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** A random opaque token: 32 bytes, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const hmac = (key: string, value: string): string =>
  createHmac('sha256', key).update(value).digest('hex');

/** A uniformly random numeric code of `digits` digits, leading zeros kept. */
export const randomDigits = (digits: number): string =>
  Array.from({ length: digits }, () => randomInt(0, 10)).join('');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A 256-bit key for one purpose, derived from the app key (HKDF-SHA256), so each use has its own. */
const derivedKey = (appKey: string, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', appKey, 'footprint', purpose, 32));

/**
 * Encrypts a small secret under the app key (AES-256-GCM, a fresh 96-bit nonce each time).
 * The result, `v1.<nonce>.<tag>.<ciphertext>` in base64url, can only be read with the same key and purpose.
 */
export function encryptSecret(appKey: string, purpose: string, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(appKey, purpose), nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The plaintext of `encryptSecret`; throws if the value was changed or the key differs. */
export function decryptSecret(appKey: string, purpose: string, sealed: string): string {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== 'v1' || !nonce || !tag || body === undefined) throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    derivedKey(appKey, purpose),
    Buffer.from(nonce, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * An Ed25519 key pair derived from APP_KEY for one purpose (HKDF-SHA-256 with `info`): whoever holds
 * APP_KEY can sign, each purpose has its own key, and the same APP_KEY gives the same key on every
 * process and every restart.
 */
export function ed25519FromAppKey(
  appKey: string,
  info: string,
): { privateKey: KeyObject; publicKey: KeyObject } {
  const seed = Buffer.from(hkdfSync('sha256', Buffer.from(appKey, 'utf8'), Buffer.alloc(0), info, 32));
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
