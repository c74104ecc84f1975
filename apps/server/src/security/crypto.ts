import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

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
