#!/usr/bin/env node
// Operator commands. Usage: npm run cli -- <command> [options]
//   migrate        apply the database migrations (under the migration lock) and exit
//   ledger:check   every user's balance equals the sum of their ledger (exit 1 and a list if not)
//   audit:verify   the audit trail's hash chain is unbroken (exit 1 naming the first broken row if not)
//   leaks:import   stream a CSV/JSONL dump into the leak index
//   leaks:sandbox  load synthetic leak records
//   users:create, users:set, users:approve, users:reject, credits:grant, credits:deduct, audit:export, lookups:purge (modules/admin/cli.ts)
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { migrationsFolder, openDatabase } from '../db/client.ts';
import { migrationStatus } from '../db/migrations.ts';
import { DomainError } from '../errors.ts';
import { adminCliOptions, adminCliUsage, runAdminCommand } from '../modules/admin/cli.ts';
import { verifyChain } from '../modules/audit/chain.ts';
import { findLedgerMismatches } from '../modules/credits/service.ts';
import { leakCliOptions, leakCliUsage, runLeaksImport } from '../modules/leaks/import/cli.ts';
import { runLeaksSandbox, sandboxLeakCliUsage } from '../sandbox/index.ts';
import { checkDatabase } from '../start-checks.ts';

const usage = `Usage: npm run cli -- <command>

Commands:
  migrate         Apply the database migrations this build carries and exit (0 when the database is
                  current). Safe to run from several places at once: they take turns under a lock.
                  For a deploy pipeline that starts its servers with MIGRATE_ON_START=false.
  ledger:check    Check that every user's credit balance equals the sum of their ledger entries.
                  Exits 0 when the books balance, 1 (with the differences) when they do not.
  audit:verify    Walk the audit trail's hash chain from its first row to its head, recomputing
                  every row's hash. Exits 0 with the rows checked and the head hash, 1 naming the
                  first broken row (id, time, what does not match).
${leakCliUsage}
${sandboxLeakCliUsage}
${adminCliUsage}

Uses DATABASE_URL (PostgreSQL) or DATA_DIR (embedded PGlite), as the server does; migrations run
over MIGRATION_DATABASE_URL when it is set.
Exit codes: 0 done, 1 refused (nothing changed), 2 bad usage or input.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, ...leakCliOptions, ...adminCliOptions },
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
          console.log('Ledger OK: every balance equals the sum of its ledger entries.');
          return 0;
        }
        console.error(`Ledger MISMATCH for ${mismatches.length} user(s):`);
        for (const m of mismatches) {
          console.error(`  ${m.email} (${m.userId}): balance ${m.balance}, ledger sum ${m.ledgerSum}`);
        }
        return 1;
      }
      case 'audit:verify': {
        const check = await verifyChain(database.db);
        if (check.status === 'intact') {
          console.log(
            `Audit chain OK: ${check.checked} row(s) checked, head row ${check.head.id}, head hash ${check.head.hash}`,
          );
          return 0;
        }
        console.error(`Audit chain BROKEN at row ${check.broken?.id}: ${check.broken?.message}`);
        console.error(
          `The ${check.verified.rows} row(s) before it (through row ${check.verified.id}) are intact; head row ${check.head.id}.`,
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
        console.error(`Unknown command: ${command}\n\n${usage}`);
        return 2;
    }
  } finally {
    await database.close();
  }
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
