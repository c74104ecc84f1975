// The operator commands: the same services as the admin API (ledger, last-admin rule, audit with
// actor 'cli'), run in-process against this file's database, plus one real `npm run cli` process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { auditEvents, creditEntries, lookups, users } from '../../src/db/schema.ts';
import { type AdminCliValues, runAdminCommand } from '../../src/modules/admin/cli.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { startSmtpServer } from '../support/smtp.ts';

let handle: DatabaseHandle;
let dir: string;
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });

beforeAll(async () => {
  handle = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'fp-cli-admin-'));
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(
  command: Parameters<typeof runAdminCommand>[0],
  args: string[] = [],
  values: AdminCliValues = {},
) {
  const logs: string[] = [];
  const errors: string[] = [];
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => {
    written += chunk.toString();
  });
  const code = await runAdminCommand(command, handle, config, args, values, {
    log: (line) => logs.push(line),
    error: (line) => errors.push(line),
    stdout,
  });
  return { code, out: logs.join('\n'), err: errors.join('\n'), stdout: written };
}

const userByEmail = async (email: string) =>
  (await handle.db.select().from(users).where(eq(users.email, email)))[0];

async function state() {
  const tally = async (table: typeof users | typeof creditEntries | typeof auditEvents) =>
    Number((await handle.db.select({ n: count() }).from(table))[0]!.n);
  return {
    users: await handle.db.select().from(users).orderBy(users.id),
    ledger: await tally(creditEntries),
    audit: await tally(auditEvents),
  };
}

const cliRows = (action: string) =>
  handle.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.actorEmail, 'cli')))
    .orderBy(auditEvents.id);

describe('users:create and users:set', () => {
  it('creates an account with a printed one-time password and an opening balance, audited as cli', async () => {
    const res = await cli('users:create', [], {
      email: 'Field.Officer@Example.TEST',
      name: 'Field Officer',
      mode: 'live',
      credits: '30',
    });
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(
      /^Created field\.officer@example\.test \([0-9a-f-]{36}\): role user, mode live, 30 credits\./,
    );
    expect(res.out).toMatch(/Temporary password \(shown once\): [A-Za-z0-9_-]{16}$/m);
    const user = await userByEmail('field.officer@example.test');
    expect(user).toMatchObject({ appMode: 'live', role: 'user', credits: 30 });
    const ledger = await handle.db.select().from(creditEntries).where(eq(creditEntries.userId, user!.id));
    expect(ledger).toEqual([expect.objectContaining({ delta: 30, kind: 'grant', actorId: null })]);
    const [created] = await cliRows('admin.user.create');
    expect(created).toMatchObject({ userId: null, target: user!.id });
    expect(created!.details).toMatchObject({ via: 'cli', email: 'field.officer@example.test' });
    expect(typeof (created!.details as { os_user: unknown }).os_user).toBe('string');
  });

  it('sets mode, role and status by e-mail; refuses the last admin and unknown accounts', async () => {
    await createUser(handle.db, { email: 'promote-me@example.test' });
    const promote = await cli('users:set', ['promote-me@example.test'], { role: 'admin', mode: 'live' });
    expect(promote.code, promote.err).toBe(0);
    expect(promote.out).toBe('Updated promote-me@example.test: role admin, mode live, status active.');
    expect(await userByEmail('promote-me@example.test')).toMatchObject({ role: 'admin', appMode: 'live' });

    // The only admin now: it cannot be demoted or disabled.
    const before = await state();
    const demote = await cli('users:set', ['promote-me@example.test'], { role: 'user' });
    expect(demote.code).toBe(1);
    expect(demote.err).toContain('This is the last active admin');
    const disable = await cli('users:set', ['promote-me@example.test'], { status: 'disabled' });
    expect(disable.code).toBe(1);
    const unknown = await cli('users:set', ['nobody@example.test'], { mode: 'live' });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('No user has the e-mail nobody@example.test.');
    const badMode = await cli('users:set', ['promote-me@example.test'], { mode: 'platinum' });
    expect(badMode.code).toBe(2);
    expect(badMode.err).toContain('The app mode must be live or trial.');
    const nothing = await cli('users:set', ['promote-me@example.test']);
    expect(nothing.code).toBe(2);
    expect(await state()).toEqual(before);

    expect(
      (await cli('users:set', ['promote-me@example.test'], { status: 'disabled', role: 'user' })).code,
    ).toBe(1);
    const [update] = await cliRows('admin.user.update');
    expect(update!.details).toMatchObject({ changes: { role: { from: 'user', to: 'admin' } }, via: 'cli' });
  });
});

describe('credits:grant and credits:deduct', () => {
  it('move credits through the ledger and refuse negative, fractional and overdrawing amounts', async () => {
    await createUser(handle.db, { email: 'wallet@example.test', credits: 5 });
    const grant = await cli('credits:grant', ['wallet@example.test'], { amount: '20', reason: 'Case load' });
    expect(grant.code, grant.err).toBe(0);
    expect(grant.out).toMatch(
      /^Granted 20 credits to wallet@example.test: balance 25 \(ledger entry \d+\)\.$/,
    );
    const deduct = await cli('credits:deduct', ['wallet@example.test'], {
      amount: '10',
      reason: 'Correction',
    });
    expect(deduct.code, deduct.err).toBe(0);
    expect((await userByEmail('wallet@example.test'))!.credits).toBe(15);

    const before = await state();
    const refusals: Array<[Parameters<typeof runAdminCommand>[0], AdminCliValues, number, string]> = [
      ['credits:grant', { amount: '-5', reason: 'x' }, 2, '--amount must be positive'],
      ['credits:grant', { amount: '2.5', reason: 'x' }, 2, 'The amount must be a whole number.'],
      ['credits:grant', { amount: 'ten', reason: 'x' }, 2, 'The amount must be a whole number.'],
      ['credits:grant', { amount: '0', reason: 'x' }, 2, 'The amount may not be zero.'],
      ['credits:grant', { amount: '5' }, 2, 'The reason field is required.'],
      ['credits:deduct', { amount: '16', reason: 'x' }, 1, 'below zero (the balance is 15)'],
    ];
    for (const [command, values, code, message] of refusals) {
      const res = await cli(command, ['wallet@example.test'], values);
      expect(res.code, JSON.stringify(values)).toBe(code);
      expect(res.err).toContain(message);
    }
    expect((await cli('credits:grant', [], { amount: '5', reason: 'x' })).code).toBe(2);
    expect(await state()).toEqual(before);

    expect((await cliRows('admin.credits.grant')).at(-1)!.details).toMatchObject({
      amount: 20,
      balance_after: 25,
    });
    expect((await cliRows('admin.credits.deduct')).at(-1)!.details).toMatchObject({
      amount: -10,
      balance_after: 15,
    });
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});

describe('audit:export', () => {
  it('writes the days asked for as CSV, to a file or stdout, and records the export', async () => {
    // The trail is append-only: an old row is written with its time, not moved there.
    await handle.db.insert(auditEvents).values({
      action: 'test.old',
      outcome: 'success',
      target: 'old-row',
      at: new Date('2024-05-10T12:00:00Z'),
    });
    await recordAudit(handle.db, { action: 'test.new', outcome: 'success', target: 'new-row' });

    const file = join(dir, 'may.csv');
    const res = await cli('audit:export', [], { from: '2024-05-10', to: '2024-05-10', out: file });
    expect(res.code, res.err).toBe(0);
    expect(res.err).toBe(`Exported 1 audit rows (2024-05-10 to 2024-05-10) to ${file}.`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,user_id,actor_email,ip,device_id,action,target,cost,outcome,case_reference,details,query_typed,query_normalized',
    );
    expect(lines.slice(1)).toEqual([
      expect.stringContaining(',2024-05-10T12:00:00.000Z,,,,,test.old,old-row,,success,,'),
    ]);

    const today = new Date().toISOString().slice(0, 10);
    const toStdout = await cli('audit:export', [], { from: today, to: today, action: 'test.new' });
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout.trimEnd().split('\r\n')).toHaveLength(2);
    expect(toStdout.stdout).toContain(',test.new,new-row,');

    const exports = await cliRows('admin.audit.export');
    expect(exports).toHaveLength(2);
    expect(exports[0]!.details).toMatchObject({
      rows: 1,
      filters: { from: '2024-05-10', to: '2024-05-10' },
      via: 'cli',
    });

    const before = await state();
    const backwards = await cli('audit:export', [], { from: '2024-05-11', to: '2024-05-10' });
    expect(backwards.code).toBe(2);
    expect(backwards.err).toContain('The end date must be on or after the start date.');
    const missing = await cli('audit:export', [], { from: '2024-05-10' });
    expect(missing.code).toBe(2);
    expect((await cli('audit:export', [], { from: '2024-13-01', to: '2024-13-02' })).code).toBe(2);
    expect(await state()).toEqual(before);
  });
});

describe('lookups:purge', () => {
  it('removes stored results past retention, keeps the rows, and records the run', async () => {
    const owner = await createUser(handle.db);
    const [old, recent] = await handle.db
      .insert(lookups)
      .values([
        {
          userId: owner.id,
          kind: 'tel',
          query: '919876543210',
          queryTyped: '+91 98765 43210',
          cost: 1,
          status: 'complete',
          result: { payloads: {}, errors: {} },
          createdAt: new Date(Date.now() - 40 * 86_400_000),
        },
        {
          userId: owner.id,
          kind: 'tel',
          query: '919876543211',
          queryTyped: '919876543211',
          cost: 1,
          status: 'complete',
          result: { payloads: {}, errors: {} },
        },
      ])
      .returning();
    expect((await cli('lookups:purge', [], { days: '0' })).code).toBe(2);
    const res = await cli('lookups:purge', [], { days: '30' });
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(/^Purged 1 stored lookup results older than 30 days/);
    const rows = await handle.db
      .select()
      .from(lookups)
      .where(eq(lookups.userId, owner.id))
      .orderBy(lookups.createdAt);
    expect(rows.map((r) => [r.id, r.result === null])).toEqual([
      [old!.id, true],
      [recent!.id, false],
    ]);
    const [run] = await cliRows('admin.lookups.purge');
    expect(run!.details).toMatchObject({ purged: 1, retention_days: 30, via: 'cli' });
  });
});

describe('users:approve and users:reject', () => {
  it('approve a pending account by e-mail, mail the user over SMTP and audit as cli', async () => {
    const smtp = await startSmtpServer();
    const withSmtp = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      APP_URL: 'http://footprint.test',
    });
    const run = async (
      command: 'users:approve' | 'users:reject',
      args: string[],
      values: AdminCliValues = {},
    ) => {
      const logs: string[] = [];
      const errors: string[] = [];
      const code = await runAdminCommand(command, handle, withSmtp, args, values, {
        log: (line) => logs.push(line),
        error: (line) => errors.push(line),
        stdout: new PassThrough(),
      });
      return { code, out: logs.join('\n'), err: errors.join('\n') };
    };
    try {
      const pending = await createUser(handle.db, { email: 'cli-pending@example.test', status: 'pending' });
      const approved = await run('users:approve', ['CLI-Pending@Example.test']);
      expect(approved.code, approved.err).toBe(0);
      expect(approved.out).toBe('Approved cli-pending@example.test: status active. The user was e-mailed.');
      expect((await userByEmail('cli-pending@example.test'))!.status).toBe('active');
      const mail = await smtp.waitFor((m) => m.to.includes('cli-pending@example.test'));
      expect(mail.subject).toBe('Your Footprint account is approved');
      expect(mail.text).toContain('http://footprint.test/login');
      const [row] = await cliRows('admin.user.approve');
      expect(row).toMatchObject({ userId: null, target: pending.id, outcome: 'success' });
      expect(row!.details).toMatchObject({
        via: 'cli',
        email: 'cli-pending@example.test',
        changes: { status: { from: 'pending', to: 'active' } },
      });

      // Approving twice is refused and changes nothing.
      const before = await state();
      const again = await run('users:approve', ['cli-pending@example.test']);
      expect(again.code).toBe(1);
      expect(again.err).toContain('not waiting for approval');
      expect(await state()).toEqual(before);

      const other = await createUser(handle.db, { email: 'cli-reject@example.test', status: 'pending' });
      const rejected = await run('users:reject', ['cli-reject@example.test'], {
        reason: 'Unverified agency',
      });
      expect(rejected.code, rejected.err).toBe(0);
      expect(rejected.out).toBe('Rejected cli-reject@example.test: status rejected. The user was e-mailed.');
      const rejectMail = await smtp.waitFor((m) => m.to.includes('cli-reject@example.test'));
      expect(rejectMail.text).toContain('Reason given: Unverified agency');
      const [rejectRow] = await cliRows('admin.user.reject');
      expect(rejectRow).toMatchObject({ target: other.id });
      expect(rejectRow!.details).toMatchObject({ via: 'cli', reason: 'Unverified agency' });

      expect((await run('users:approve', [])).code).toBe(2);
      expect((await run('users:approve', ['nobody@example.test'])).code).toBe(1);
    } finally {
      await smtp.close();
    }
  });
});

describe('npm run cli', () => {
  it('wires the commands into the real CLI process (PGlite data directory)', async () => {
    const dataDir = join(dir, 'data');
    const seed = await openDatabase({ dataDir });
    await seed.migrate();
    await createUser(seed.db, { email: 'proc-pending@example.test', status: 'pending' });
    await seed.close();
    const root = new URL('../../../..', import.meta.url).pathname;
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/index.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, NODE_ENV: 'test' },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    const created = await run(
      'users:create',
      '--email',
      'proc@example.test',
      '--name',
      'Proc User',
      '--credits',
      '3',
    );
    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain('Created proc@example.test');
    const refused = await run('credits:deduct', 'proc@example.test', '--amount', '4', '--reason', 'too much');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('below zero');
    const help = await run('--help');
    expect(help.out).toContain('audit:export');
    expect(help.out).toContain('users:approve');
    const approved = await run('users:approve', 'proc-pending@example.test');
    expect(approved.code, approved.out).toBe(0);
    expect(approved.out).toContain(
      'Approved proc-pending@example.test: status active. The user was e-mailed (development outbox).',
    );
    const check = await openDatabase({ dataDir });
    const [row] = await check.db.select().from(users).where(eq(users.email, 'proc@example.test'));
    await check.close();
    expect(row).toMatchObject({ credits: 3, appMode: 'trial' });
  }, 90_000);
});
