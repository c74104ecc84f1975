import { createHash } from 'node:crypto';
import { messages } from '@footprint/domain';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The rule for a new password (register, reset, accounts an admin or the CLI creates): at least
 * PASSWORD_MIN_LENGTH characters (the zod contracts check that, spaces allowed, no composition
 * rules), and not a password that breaches have made common. Two checks:
 *
 * - offline, always: the most common passwords of zxcvbn's list (@zxcvbn-ts/language-common, the
 *   package the web app's strength meter uses), also when the password is one of them with digits or symbols around it
 *   ('password1234'), or one repeated ('qwertyqwerty'), or a run of one or two characters;
 * - online, when a Pwned Passwords range API is configured (PWNED_PASSWORDS_URL): k-anonymity, only
 *   the first 5 hex characters of the SHA-1 leave the server, with `Add-Padding: true`, and the
 *   answer's `SUFFIX:COUNT` lines are compared here. A failed or slow call (PWNED_PASSWORDS_TIMEOUT_MS)
 *   leaves the decision to the offline list: a password is never refused because the service is down.
 */
export interface PasswordPolicy {
  /** The message to show under the password field, or undefined when the password may be used. */
  check(password: string): Promise<string | undefined>;
}

export interface PasswordPolicyOptions {
  /** The range API's base URL (`…/range/{prefix}` is appended); undefined: offline only. */
  pwnedUrl?: string | undefined;
  timeoutMs?: number;
  /** Told when the range API could not answer (logged by the caller). */
  onUnavailable?: (error: unknown) => void;
}

/** How many of the list's most common entries are kept; every entry of 12 characters or more is kept too. */
const COMMON_TOP = 10_000;

let common: Set<string> | undefined;
const commonSet = () => {
  const list = dictionary['passwords-common'] as string[];
  common ??= new Set(
    [...list.slice(0, COMMON_TOP), ...list.filter((p) => p.length >= 12)]
      .map((p) => p.toLowerCase())
      // Printable ASCII only, and none of ` \ $: the list as it was first bundled.
      .filter((p) => /^[\x20-\x7e]+$/.test(p) && !/[`\\$]/.test(p)),
  );
  return common;
};

/** Whether the bundled list makes this password a common one (see PasswordPolicy). */
export function isCommonPassword(password: string): boolean {
  const set = commonSet();
  const lower = password.toLowerCase();
  const trimmed = lower.trim();
  // A run of one or two characters ('aaaaaaaaaaaa', twelve spaces, 'abababababab').
  if (/^(.{1,2})\1*$/su.test(lower)) return true;
  const repeated = /^(.+?)\1+$/su.exec(trimmed)?.[1];
  // The word inside digits, symbols and spaces: 'password1234', '!!qwerty2024!!'.
  const core = trimmed.replace(/^[\d\W_]+|[\d\W_]+$/gu, '');
  return [lower, trimmed, repeated, core].some((candidate) => candidate && set.has(candidate));
}

/** Whether the range API knows the password; throws when it cannot answer in time. */
export async function isPwnedPassword(
  password: string,
  baseUrl: string,
  timeoutMs: number,
): Promise<boolean> {
  const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  const prefix = sha1.slice(0, 5);
  const suffix = sha1.slice(5);
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}/range/${prefix}`, {
    headers: { 'add-padding': 'true', 'user-agent': 'Footprint password check' },
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`Pwned Passwords answered ${response.status}`);
  const body = await response.text();
  for (const line of body.split('\n')) {
    const [hash, count] = line.trim().split(':');
    // Padding lines carry a count of 0: they are not breached passwords.
    if (hash?.toUpperCase() === suffix && Number(count) > 0) return true;
  }
  return false;
}

export function createPasswordPolicy(options: PasswordPolicyOptions = {}): PasswordPolicy {
  const timeoutMs = options.timeoutMs ?? 2000;
  return {
    async check(password) {
      if (isCommonPassword(password)) return messages.passwordRules.common;
      if (!options.pwnedUrl) return undefined;
      try {
        return (await isPwnedPassword(password, options.pwnedUrl, timeoutMs))
          ? messages.passwordRules.breached
          : undefined;
      } catch (error) {
        options.onUnavailable?.(error);
        return undefined;
      }
    },
  };
}
