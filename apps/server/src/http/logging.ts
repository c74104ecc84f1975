import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/** Fields that hold a password or a password hash wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'new_password',
  'temporary_password',
  'passwordHash',
  'password_hash',
  'token',
  'otp',
];

/** pino redaction paths: the fields at the top, one and two levels down (req.body.password). */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/** An argon2 encoded hash ($argon2id$v=19$m=…,t=…,p=…$salt$hash), wherever it shows up in a string. */
const ARGON2 = /\$argon2(?:id|i|d)\$[^\s"'()]*/g;
/** The parameter line Drizzle puts in a failed query's message and stack. */
const PARAMS_LINE = /\nparams: [^\n]*/g;

const scrubText = (text: string) =>
  text.replace(PARAMS_LINE, '\nparams: [redacted]').replace(ARGON2, '[redacted]');

/**
 * Keys of a database error that repeat what was written: Drizzle's `params` (every bound value of the
 * failed query, a password hash among them when a user row failed) and PostgreSQL's `detail`
 * ("Failing row contains (…)").
 */
const ROW_KEYS = new Set(['params', 'parameters', 'detail']);

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !ROW_KEYS.has(key))
      .map(([key, item]) => [key, scrub(item, depth + 1)]),
  );
}

/** pino's error serializer, without the data of the row a failed query carried. */
export function serializeError(error: unknown): unknown {
  return scrub(pino.stdSerializers.err(error as Error));
}

/**
 * The server's logger: the level from LOG_LEVEL, passwords and their hashes never written (neither
 * in a logged body nor in a database error's message, parameters or failing row).
 */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    ...(stream ? { stream } : {}),
  };
}
