/**
 * The browser's session record (spec §3): `auth_token`, `token_expiry` (the ISO `expires_at` the server
 * returned) and `device_id` in localStorage. Storage can be unavailable (private modes, quota, disabled
 * cookies); every helper then degrades to "no session" instead of throwing into the UI.
 */
const TOKEN_KEY = 'auth_token';
const EXPIRY_KEY = 'token_expiry';
const DEVICE_KEY = 'device_id';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage refused (quota or privacy mode): the session then lasts only as long as this page.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored that we could remove.
  }
}

export const getToken = (): string | null => read(TOKEN_KEY) || null;

export const getTokenExpiry = (): string | null => read(EXPIRY_KEY) || null;

/** Stores the bearer token and its expiry after a login or an OTP verification. */
export function saveSession(token: string, expiresAt: string): void {
  write(TOKEN_KEY, token);
  write(EXPIRY_KEY, expiresAt);
}

/** Forgets the token and its expiry. The device id stays: it identifies the browser, not the session. */
export function clearSession(): void {
  remove(TOKEN_KEY);
  remove(EXPIRY_KEY);
}

/** True when a stored expiry exists and lies in the past. An unreadable expiry counts as expired. */
export function isTokenExpired(now: number = Date.now()): boolean {
  const expiry = getTokenExpiry();
  if (!expiry) return false;
  const at = Date.parse(expiry);
  return Number.isNaN(at) || at <= now;
}

let memoryDeviceId: string | null = null;

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; plain-http LAN deployments still get a v4 UUID.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The browser's device id: generated once, then reused for every request (spec §3). */
export function getDeviceId(): string {
  const stored = read(DEVICE_KEY);
  if (stored) return stored;
  memoryDeviceId ??= randomId();
  write(DEVICE_KEY, memoryDeviceId);
  return memoryDeviceId;
}
