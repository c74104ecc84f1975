#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
// Operator commands. Usage: npm run cli -- <command> [options]
//   migrate        apply the database migrations (under the migration lock) and exit
//   ledger:check   every user's balance equals the sum of their ledger (exit 1 and a list if not)
//   audit:checkpoint  seal the audit trail and print its newest signed checkpoint (--key: the verifier key)
//   audit:verify   the audit trail verifies from its rows (exit 1 naming the first break if not);
//                  --checkpoint <file>: against checkpoints kept outside the database
//   leaks:import   stream a CSV/JSONL dump into the leak index
//   leaks:sandbox  load synthetic leak records
//   users:create, users:set, users:approve, users:reject, credits:grant, credits:deduct, audit:export, lookups:purge (modules/admin/cli.ts)
//   units:list, units:create, units:rename, units:move, units:delete, units:levels, units:add-member, units:remove-member (modules/units/cli.ts)
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { migrationsFolder, openDatabase } from '../db/client.ts';
import { migrationStatus } from '../db/migrations.ts';
import { DomainError } from '../errors.ts';
import { adminCliOptions, adminCliUsage, cliActing, runAdminCommand } from '../modules/admin/cli.ts';
import {
  auditOrigin,
  type Checkpoint,
  checkpointSigner,
  type NoteVerifier,
  openCheckpoint,
  parseVerifierKey,
  splitNotes,
} from '../modules/audit/checkpoint.ts';
import { createSealer } from '../modules/audit/sealer.ts';
import { verifyAgainstKept, verifyTrail } from '../modules/audit/verify.ts';
import { findLedgerMismatches } from '../modules/credits/service.ts';
import { leakCliOptions, leakCliUsage, runLeaksImport } from '../modules/leaks/import/cli.ts';
import { readSetting, resolveAppKey } from '../modules/settings/service.ts';
import {
  runUnitCommand,
  UNIT_COMMANDS,
  type UnitCommand,
  unitCliOptions,
  unitCliUsage,
} from '../modules/units/cli.ts';
import { runLeaksSandbox, sandboxLeakCliUsage } from '../sandbox/index.ts';
import { checkDatabase } from '../start-checks.ts';

const usage = `Usage: npm run cli -- <command>

Commands:
  migrate         Apply the database migrations this build carries and exit (0 when the database is
                  current). Safe to run from several places at once: they take turns under a lock.
                  For a deploy pipeline that starts its servers with MIGRATE_ON_START=false.
  ledger:check    Check that every user's credit balance equals the sum of their ledger entries.
                  Exits 0 when the books balance, 1 (with the differences) when they do not.
  audit:checkpoint  Seal every committed row of the audit trail into its Merkle tree, then print the
                  newest signed checkpoint (a C2SP signed note) for an auditor to keep. --key: print
                  the verifier key instead (<name>+<key id>+<base64 key>).
  audit:verify    Recompute the audit trail from its rows: the hash chain of the rows written
                  before migration 0027, and the Merkle root at every stored checkpoint (signatures
                  checked). Exits 0 with the rows checked and the rows not sealed yet, 1 naming the
                  first break. --checkpoint <file>: check the trail against checkpoints kept outside
                  the database instead (one signed note, or a file of them as AUDIT_CHECKPOINT_FILE
                  collects them): each one's signature, and that the trail's first N rows hash to its
                  root; --key <vkey> gives the verifier key (else it is derived from APP_KEY).
${leakCliUsage}
${sandboxLeakCliUsage}
${adminCliUsage}
${unitCliUsage}

Uses DATABASE_URL (PostgreSQL) or DATA_DIR (embedded PGlite), as the server does; migrations run
over MIGRATION_DATABASE_URL when it is set.
Exit codes: 0 done, 1 refused (nothing changed), 2 bad usage or input.`;

async function main(argv: string[]): Promise<number> {
  // `audit:checkpoint --key` is a switch; `audit:verify --key <vkey>` takes a value.
  const printKey = argv[0] === 'audit:checkpoint' && argv.includes('--key');
  const { positionals, values } = parseArgs({
    args: printKey ? argv.filter((arg) => arg !== '--key') : argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      checkpoint: { type: 'string' },
      key: { type: 'string' },
      ...leakCliOptions,
      ...adminCliOptions,
      ...unitCliOptions,
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig();
  for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
  for (const [url, variable] of [
    [config.databaseUrl, 'DATABASE_URL'],
    [config.migrationDatabaseUrl, 'MIGRATION_DATABASE_URL'],
  ] as const) {
    const unreachable = url ? await checkDatabase(url, variable) : undefined;
    if (unreachable) {
      console.error(unreachable);
      return 1;
    }
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    migrationUrl: config.migrationDatabaseUrl,
    dataDir: config.dataDir,
  });
  try {
    if (command === 'migrate') {
      const before = await migrationStatus(database.db, migrationsFolder);
      await database.migrate();
      const after = await migrationStatus(database.db, migrationsFolder);
      if (after.pending.length > 0) {
        console.error(`Migrations NOT applied: ${after.pending.join(', ')}`);
        return 1;
      }
      const applied = before.pending.length;
      console.log(
        `Migrations: ${applied === 0 ? 'none to apply' : `applied ${applied}`}; the database is current (${after.known} migrations).`,
      );
      return 0;
    }
    await database.migrate();
    switch (command) {
      case 'ledger:check': {
        const mismatches = await findLedgerMismatches(database.db);
        if (mismatches.length === 0) {
          console.log('Ledger OK: every balance, pool and allowance equals the sum of its ledger entries.');
          return 0;
        }
        console.error(`Ledger MISMATCH for ${mismatches.length} balance(s):`);
        for (const m of mismatches) {
          const what = m.holder === 'allowance' ? 'allowance used' : 'balance';
          console.error(`  ${m.holder} ${m.name} (${m.id}): ${what} ${m.balance}, ledger sum ${m.ledgerSum}`);
        }
        return 1;
      }
      case 'audit:checkpoint': {
        const signer = checkpointSigner(
          await resolveAppKey(database.db, config.appKey),
          auditOrigin(config.appUrl),
        );
        if (printKey) {
          console.log(signer.vkey);
          return 0;
        }
        const newest = await createSealer({ db: database.db, signer, intervalMs: 0 }).sealNow();
        if (!newest) {
          console.error('The audit trail is empty: nothing to seal.');
          return 1;
        }
        process.stdout.write(newest.note);
        return 0;
      }
      case 'audit:verify': {
        // The key given, else derived from APP_KEY (configured, or the one the server stored); a
        // verification never makes a key up.
        let verifier: NoteVerifier | undefined;
        try {
          const appKey = config.appKey ?? (await readSetting<string>(database.db, 'app_key'));
          verifier = values.key
            ? parseVerifierKey(values.key)
            : appKey
              ? checkpointSigner(appKey, auditOrigin(config.appUrl))
              : undefined;
        } catch (error) {
          console.error(`--key: ${(error as Error).message}`);
          return 2;
        }
        if (values.checkpoint) {
          if (!verifier) {
            console.error('--checkpoint: give the verifier key with --key (no APP_KEY to derive it from)');
            return 2;
          }
          return await verifyKept(database.db, values.checkpoint, verifier);
        }
        if (!verifier) console.warn("Warning: no APP_KEY: the checkpoints' signatures are not checked.");
        const check = await verifyTrail(database.db, { verifier });
        if (check.status === 'intact') {
          const tree = check.checkpoint
            ? `${check.checkpointsChecked} checkpoint(s) checked, tree size ${check.checkpoint.treeSize}, root ${check.checkpoint.rootHash}`
            : 'nothing sealed yet';
          console.log(
            `Audit trail OK: ${check.checked} row(s) checked; legacy chain head row ${check.head.id}, ` +
              `head hash ${check.head.hash}; ${tree}; ${check.pending} row(s) not sealed yet.`,
          );
          return 0;
        }
        console.error(`Audit trail BROKEN at row ${check.broken?.id}: ${check.broken?.message}`);
        console.error(
          `The ${check.verified.rows} row(s) before it (through row ${check.verified.id}) are intact; legacy chain head row ${check.head.id}.`,
        );
        return 1;
      }
      case 'leaks:import':
        return await runLeaksImport(database, config.databaseUrl, positionals.slice(1), values, {
          bulkUrl: config.migrationDatabaseUrl,
        });
      case 'leaks:sandbox':
        return await runLeaksSandbox(database, config.databaseUrl, values);
      case 'users:create':
      case 'users:set':
      case 'users:approve':
      case 'users:reject':
      case 'credits:grant':
      case 'credits:deduct':
      case 'audit:export':
      case 'lookups:purge':
        return await runAdminCommand(command, database, config, positionals.slice(1), values);
      default:
        if ((UNIT_COMMANDS as readonly string[]).includes(command)) {
          return await runUnitCommand(
            command as UnitCommand,
            database.db,
            cliActing(),
            positionals.slice(1),
            values,
            {
              log: (line) => console.log(line),
              error: (line) => console.error(line),
            },
          );
        }
        console.error(`Unknown command: ${command}\n\n${usage}`);
        return 2;
    }
  } finally {
    await database.close();
  }
}

/** audit:verify --checkpoint: the trail against checkpoints kept outside the database. */
async function verifyKept(db: Parameters<typeof verifyTrail>[0], file: string, verifier: NoteVerifier) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    console.error(`--checkpoint: cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }
  const notes = splitNotes(text);
  if (notes.length === 0) {
    console.error(`--checkpoint: ${file} holds no signed checkpoint`);
    return 2;
  }
  const kept: Checkpoint[] = [];
  for (const [i, note] of notes.entries()) {
    try {
      kept.push(openCheckpoint(note, verifier));
    } catch (error) {
      console.error(`Kept checkpoint ${i + 1} of ${file} REFUSED: ${(error as Error).message}`);
      return 1;
    }
  }
  const { mismatch, rows } = await verifyAgainstKept(db, kept);
  if (mismatch) {
    console.error(
      `Audit trail does NOT match the kept checkpoint of size ${mismatch.treeSize}: ${mismatch.message}`,
    );
    return 1;
  }
  const largest = Math.max(...kept.map((c) => c.treeSize));
  console.log(
    `Audit trail matches ${kept.length} kept checkpoint(s) (signed by ${verifier.vkey}), the largest of ` +
      `${largest} rows (${rows} row(s) read).`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    // A refusal of the catalogue (any code) changed nothing: its message and exit 1, as for the admin
    // commands; anything else is printed whole.
    console.error(error instanceof ConfigError || error instanceof DomainError ? error.message : error);
    process.exit(1);
  },
);
