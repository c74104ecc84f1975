/**
 * Operator commands for accounts, credits, the audit trail and retention (wired into src/cli/index.ts).
 * They call the same functions as the admin API, so the same rules hold: credits only through the
 * ledger, the last active admin kept, every change in the audit trail (actor 'cli', with the OS user).
 */
import { createWriteStream } from 'node:fs';
import { userInfo } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  adminCreateUserRequest,
  adminCreditsRequest,
  adminRejectRequest,
  adminUpdateUserRequest,
  auditExportQuery,
  RETENTION_DAYS_MAX,
  toFieldErrors,
} from '@footprint/domain';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { DomainError } from '../../errors.ts';
import { createPasswordPolicy } from '../../security/password-policy.ts';
import { CLI_ACTOR, recordAudit } from '../audit/service.ts';
import { purgeExpiredResults } from '../lookup/retention.ts';
import { outboxMailer, smtpMailer } from '../mail/mailer.ts';
import { deploymentDefaults } from '../settings/service.ts';
import { decideAndNotify } from './approval.ts';
import { exportAudit } from './service.ts';
import { type Acting, changeCredits, createUser, getUserByEmail, updateUser } from './users.ts';

export const adminCliOptions = {
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  mode: { type: 'string' },
  status: { type: 'string' },
  credits: { type: 'string' },
  amount: { type: 'string' },
  reason: { type: 'string' },
  'revoke-sessions': { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string' },
  user: { type: 'string' },
  action: { type: 'string' },
  q: { type: 'string' },
  'case-reference': { type: 'string' },
  days: { type: 'string' },
} as const;

export type AdminCliValues = {
  [K in keyof typeof adminCliOptions]?: (typeof adminCliOptions)[K]['type'] extends 'boolean'
    ? boolean | undefined
    : string | undefined;
};

export const adminCliUsage = `  users:create    --email a@b.org --name "Full Name" [--role user|admin] [--mode live|trial]
                  [--credits N] [--password P]
                  Create an account (default: trial user). Without --password a random one is
                  generated and printed once. --credits is an opening balance through the ledger.
  users:approve   <email>
                  Approve an account waiting for approval (or a rejected one): it can sign in at
                  once. The user is e-mailed (SMTP_URL, else the development outbox).
  users:reject    <email> [--reason "why"]
                  Reject an account waiting for approval: it cannot sign in. The user is e-mailed,
                  with the reason if one is given.
  users:set       <email> [--mode live|trial] [--role user|admin] [--status active|disabled]
                  [--name "Full Name"] [--revoke-sessions]
                  Change an account. Disabling signs it out everywhere; the last active admin can
                  be neither demoted nor disabled.
  credits:grant   <email> --amount N --reason "why"     Add N credits (a ledger 'grant').
  credits:deduct  <email> --amount N --reason "why"     Take N credits (a ledger 'adjustment');
                  refused if the balance would go below zero.
  audit:export    --from YYYY-MM-DD --to YYYY-MM-DD [--out file.csv] [--user U] [--action A]
                  [--q TEXT] [--case-reference REF]
                  The audit trail of those days (UTC, both inclusive) as CSV, to the file or stdout.
                  The export itself is written to the trail.
  lookups:purge   [--days N]
                  Remove stored lookup results older than the retention period (the admin setting,
                  else LOOKUP_RETENTION_DAYS; --days overrides). Lookup rows and the audit trail stay.`;

export const ADMIN_COMMANDS = [
  'users:create',
  'users:set',
  'users:approve',
  'users:reject',
  'credits:grant',
  'credits:deduct',
  'audit:export',
  'lookups:purge',
] as const;

/** Bad usage: exit 2 with the message (the units commands share it). */
export class CliUsageError extends Error {}

/** The input checked by the API's own schema; a refusal is a usage error naming each field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error);
  throw new CliUsageError(
    Object.entries(errors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('\n'),
  );
}

/** '12' → 12, '-3' → -3; anything else stays a string so the schema refuses it with its message. */
const numeric = (value: string | undefined) =>
  value === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;

export const cliActing = (): Acting => {
  let osUser = 'unknown';
  try {
    osUser = userInfo().username;
  } catch {
    // No passwd entry (some containers): the row still says 'cli'.
  }
  return { actor: CLI_ACTOR, client: null, details: { via: 'cli', os_user: osUser } };
};

const target = (positionals: string[], values: AdminCliValues): string => {
  const email = positionals[0] ?? values.email;
  if (!email) throw new CliUsageError('Name the account: <email> (or --email).');
  return email;
};

/** What one operator command is run with. */
interface CommandContext {
  db: DatabaseHandle['db'];
  config: Config;
  command: (typeof ADMIN_COMMANDS)[number];
  positionals: string[];
  values: AdminCliValues;
  out: { log(line: string): void; error(line: string): void; stdout: NodeJS.WritableStream };
  acting: ReturnType<typeof cliActing>;
}

async function createAccount({ db, config, values, out, acting }: CommandContext): Promise<number> {
  const input = parse(adminCreateUserRequest, {
    name: values.name,
    email: values.email,
    password: values.password,
    role: values.role,
    app_mode: values.mode,
    credits: numeric(values.credits),
  });
  const created = await createUser(
    db,
    input,
    acting,
    createPasswordPolicy({
      pwnedUrl: config.passwords.pwnedUrl,
      timeoutMs: config.passwords.timeoutMs,
      onUnavailable: () => out.error('Pwned Passwords unavailable: the offline list decided.'),
    }),
  );
  const u = created.user;
  out.log(`Created ${u.email} (${u.id}): role ${u.role}, mode ${u.app_mode}, ${u.credits} credits.`);
  if (created.temporary_password) {
    out.log(`Temporary password (shown once): ${created.temporary_password}`);
  }
  return 0;
}

async function setAccount({ db, positionals, values, out, acting }: CommandContext): Promise<number> {
  const user = await getUserByEmail(db, target(positionals, values));
  const patch = parse(adminUpdateUserRequest, {
    name: values.name,
    role: values.role,
    app_mode: values.mode,
    status: values.status,
    revoke_sessions: values['revoke-sessions'] ? true : undefined,
  });
  const u = await updateUser(db, user.id, patch, acting);
  out.log(`Updated ${u.email}: role ${u.role}, mode ${u.app_mode}, status ${u.status}.`);
  return 0;
}

async function decideAccount({
  db,
  config,
  command,
  positionals,
  values,
  out,
  acting,
}: CommandContext): Promise<number> {
  const user = await getUserByEmail(db, target(positionals, values));
  const approve = command === 'users:approve';
  const reason = approve ? undefined : parse(adminRejectRequest, { reason: values.reason }).reason;
  const mailer = config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : outboxMailer(db);
  try {
    const { user: u, notified } = await decideAndNotify(
      { db, mailer, appUrl: config.appUrl, trialCredits: config.auth.trialCredits },
      user.id,
      approve ? { kind: 'approve' } : { kind: 'reject', reason },
      acting,
    );
    out.log(
      `${approve ? 'Approved' : 'Rejected'} ${u.email}: status ${u.status}. ` +
        (notified
          ? `The user was e-mailed${mailer.kind === 'outbox' ? ' (development outbox)' : ''}.`
          : 'The e-mail could NOT be sent (see the audit trail): tell the user yourself.'),
    );
    return 0;
  } finally {
    await mailer.close();
  }
}

async function changeAccountCredits({
  db,
  command,
  positionals,
  values,
  out,
  acting,
}: CommandContext): Promise<number> {
  const user = await getUserByEmail(db, target(positionals, values));
  const amount = numeric(values.amount);
  if (typeof amount === 'number' && amount < 0) {
    throw new CliUsageError(
      `--amount must be positive: ${command} ${command === 'credits:grant' ? 'adds' : 'takes'} credits.`,
    );
  }
  const input = parse(adminCreditsRequest, { amount, reason: values.reason });
  const delta = command === 'credits:grant' ? input.amount : -input.amount;
  const { user: u, entry } = await changeCredits(
    db,
    user.id,
    { amount: delta, reason: input.reason },
    acting,
  );
  out.log(
    `${delta > 0 ? 'Granted' : 'Deducted'} ${Math.abs(delta)} credits ${delta > 0 ? 'to' : 'from'} ${u.email}: balance ${u.credits} (ledger entry ${entry.id}).`,
  );
  return 0;
}

async function exportAuditTrail({ db, values, out, acting }: CommandContext): Promise<number> {
  if (!values.from || !values.to) throw new CliUsageError('audit:export needs --from and --to (YYYY-MM-DD).');
  const filters = parse(auditExportQuery, {
    from: values.from,
    to: values.to,
    user: values.user,
    action: values.action,
    q: values.q,
    case_reference: values['case-reference'],
  });
  const { rows, chunks } = await exportAudit(db, filters, acting);
  if (values.out) {
    await pipeline(Readable.from(chunks), createWriteStream(values.out));
    out.error(`Exported ${rows} audit rows (${filters.from} to ${filters.to}) to ${values.out}.`);
  } else {
    for await (const chunk of chunks) {
      if (!out.stdout.write(chunk)) await new Promise((resolve) => out.stdout.once('drain', resolve));
    }
    out.error(`Exported ${rows} audit rows (${filters.from} to ${filters.to}).`);
  }
  return 0;
}

async function purgeLookups({ db, config, values, out, acting }: CommandContext): Promise<number> {
  let retentionDays: number | undefined;
  if (values.days !== undefined) {
    const days = numeric(values.days);
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > RETENTION_DAYS_MAX) {
      throw new CliUsageError(`--days must be a whole number from 1 to ${RETENTION_DAYS_MAX}.`);
    }
    retentionDays = days;
  }
  const result = await purgeExpiredResults(db, deploymentDefaults(config), { retentionDays });
  await recordAudit(db, {
    action: 'admin.lookups.purge',
    outcome: 'success',
    user: acting.actor,
    target: 'lookups',
    details: {
      purged: result.purged,
      retention_days: result.retentionDays,
      cutoff: result.cutoff.toISOString(),
      ...acting.details,
    },
  });
  out.log(
    `Purged ${result.purged} stored lookup results older than ${result.retentionDays} days (before ${result.cutoff.toISOString()}). Lookup rows and the audit trail are kept.`,
  );
  return 0;
}

/** Each operator command, by its name. */
const COMMANDS: Record<(typeof ADMIN_COMMANDS)[number], (context: CommandContext) => Promise<number>> = {
  'users:create': createAccount,
  'users:set': setAccount,
  'users:approve': decideAccount,
  'users:reject': decideAccount,
  'credits:grant': changeAccountCredits,
  'credits:deduct': changeAccountCredits,
  'audit:export': exportAuditTrail,
  'lookups:purge': purgeLookups,
};

/** A refusal as the operator reads it: its message, and each field's message it does not repeat. */
export function refusalText(error: DomainError): string {
  const fields = Object.values(error.extra.errors ?? {}).flat();
  return fields.length > 0 && !fields.includes(error.message)
    ? `${error.message}\n${fields.join('\n')}`
    : error.message;
}

export async function runAdminCommand(
  command: (typeof ADMIN_COMMANDS)[number],
  database: DatabaseHandle,
  config: Config,
  positionals: string[],
  values: AdminCliValues,
  out: { log(line: string): void; error(line: string): void; stdout: NodeJS.WritableStream } = {
    log: (line) => console.log(line),
    error: (line) => console.error(line),
    stdout: process.stdout,
  },
): Promise<number> {
  const { db } = database;
  const acting = cliActing();
  try {
    return await COMMANDS[command]({ db, config, command, positionals, values, out, acting });
  } catch (error) {
    if (error instanceof CliUsageError) {
      out.error(error.message);
      return 2;
    }
    // Every code of the catalogue is a refusal here (unknown account, last admin, below zero, an
    // e-mail already taken, …): nothing was changed.
    if (error instanceof DomainError) {
      out.error(refusalText(error));
      return 1;
    }
    throw error;
  }
}
