// Credits are written in exactly one module: the ledger (src/modules/credits/service.ts), and a search's
// charge in the database function it calls (footprint_charge_lookups, migration 0033). Every other
// server file changes a balance, a unit's pool or a member's allowance by calling it, never with its own SQL.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const LEDGER = 'modules/credits/service.ts';

/** SQL or query-builder calls that write a balance or the ledger, in raw SQL or through drizzle. */
const WRITES = [
  /update\s+(?:\$\{users\}|users)\b(?:(?!;|`\)).)*?\bset\b(?:(?!`\)).)*?\bcredits\s*=/is,
  /\.update\(\s*users\s*\)\s*\.set\(\s*\{[^}]*\bcredits\b/s,
  /insert\s+into\s+(?:credit_entries|\$\{creditEntries\})/i,
  /(?:update|delete\s+from)\s+(?:credit_entries|\$\{creditEntries\})/i,
  /\.(?:insert|update|delete)\(\s*creditEntries\s*\)/,
  /\.update\(\s*units\s*\)\s*\.set\(\s*\{[^}]*\bcredits\b/s,
  /\.update\(\s*unitMembers\s*\)\s*\.set\(\s*\{[^}]*\b(?:allowanceUsed|monthlyAllowance)\b/s,
  /update\s+(?:\$\{units\}|units|\$\{unitMembers\}|unit_members)\b(?:(?!;|`\)).)*?\bset\b(?:(?!`\)).)*?\b(?:credits|allowance_used|monthly_allowance)\s*=/is,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const writersIn = (text: string) => WRITES.filter((pattern) => pattern.test(text)).map(String);

describe('the ledger', () => {
  it('is the only server file with SQL that writes users.credits or credit_entries', () => {
    const writers = sourceFiles(SRC)
      .map((file) => relative(SRC, file).split('\\').join('/'))
      .filter((file) => file !== LEDGER && writersIn(readFileSync(join(SRC, file), 'utf8')).length > 0);
    expect(writers).toEqual([]);
  });

  it('is found by the same patterns (the check above is not vacuous)', () => {
    const ledger = readFileSync(join(SRC, LEDGER), 'utf8');
    expect(writersIn(ledger).length).toBeGreaterThanOrEqual(4);
  });
});
