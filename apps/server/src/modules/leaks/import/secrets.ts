/**
 * Columns that hold credentials are never stored, whatever the mapping says. A column is a secret when
 * one of the words of its name (split on punctuation and camelCase) is a credential word, when a word
 * ends with one ('md5hash', 'accesstoken'), or when the squashed name contains 'password'/'passwd'/'pwd'
 * ('userpassword'). 'passport', 'hashtag', 'compass' and 'pincode' are not secrets ('pin' is left alone too:
 * in Indian address data it is the postal PIN).
 */

const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passwrd',
  'pass',
  'pwd',
  'pw',
  'hash',
  'hashed',
  'passwordhash',
  'passhash',
  'pwhash',
  'salt',
  'secret',
  'token',
  'md5',
  'sha1',
  'sha256',
  'sha512',
  'bcrypt',
  'scrypt',
  'argon2',
  'crypt',
  'otp',
  'cvv',
]);

const SECRET_SUFFIXES = ['hash', 'salt', 'token', 'secret', 'password', 'passwd'];
const SECRET_INFIXES = ['password', 'passwd', 'pwd'];

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** True when a column (or JSONL key, or any segment of a dotted key path) must never be stored. */
export function isSecretColumn(name: string): boolean {
  const parts = words(name);
  if (parts.some((word) => SECRET_WORDS.has(word))) return true;
  if (parts.some((word) => SECRET_SUFFIXES.some((suffix) => word.endsWith(suffix)))) return true;
  const squashed = parts.join('');
  return SECRET_INFIXES.some((infix) => squashed.includes(infix));
}
