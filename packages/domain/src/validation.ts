import { z } from 'zod';
import { fieldMessages } from './messages.ts';

/** The spec's e-mail shape: something@something.tld with no spaces anywhere. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL_PATTERN.test(value);

export type FieldErrors = Record<string, string[]>;

const label = (field: string) => field.replaceAll('_', ' ');

/** A required string field with Laravel-style messages for missing, wrong type, empty and too long. */
export function requiredText(field: string, max: number) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? fieldMessages.required(label(field))
          : fieldMessages.string(label(field)),
    })
    .min(1, { error: fieldMessages.required(label(field)), abort: true })
    .max(max, { error: fieldMessages.max(label(field), max), abort: true });
}

/** A required e-mail field: trimmed, checked for shape, lower-cased for lookups. */
export function emailField(field = 'email', max = 100) {
  return (
    requiredText(field, max)
      .trim()
      .min(1, { error: fieldMessages.required(label(field)), abort: true })
      .regex(EMAIL_PATTERN, fieldMessages.email(label(field)))
      // Control characters (NUL above all, which PostgreSQL cannot store) are no e-mail address.
      .regex(/^[^\p{Cc}]*$/u, fieldMessages.email(label(field)))
      .transform((value) => value.toLowerCase())
  );
}

/**
 * Turns zod issues into the spec's `errors` object: field name → messages, first message first.
 * Unknown keys are reported per key so a client can see what it sent wrongly.
 */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  // A Map, not an object: a client may send keys such as 'constructor' or '__proto__'.
  const errors = new Map<string, string[]>();
  const add = (field: string, message: string) => {
    const list = errors.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    errors.set(field, list);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, fieldMessages.notAllowed(label(key)));
      continue;
    }
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
    add(field, issue.message);
  }
  return Object.fromEntries(errors);
}

/** The first message of each field, as the spec's forms show them. */
export function firstErrors(errors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, list] of Object.entries(errors ?? {})) {
    if (list[0]) out[field] = list[0];
  }
  return out;
}
