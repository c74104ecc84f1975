import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { createUser } from '../support/app.ts';

const run = promisify(execFile);
const root = new URL('../../../..', import.meta.url).pathname;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fp-ledger-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/index.ts', ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, NODE_ENV: 'test' },
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('npm run cli -- ledger:check', () => {
  it('exits 0 when the books balance and 1 with the user when one does not', async () => {
    const database = await openDatabase({ dataDir });
    await database.migrate();
    const user = await createUser(database.db, { credits: 9, email: 'books@example.test' });
    await database.close();

    const ok = await cli('ledger:check');
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('Ledger OK');

    const tamper = await openDatabase({ dataDir });
    await tamper.db.update(users).set({ credits: 12 }).where(eq(users.id, user.id));
    await tamper.close();

    const bad = await cli('ledger:check');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('books@example.test');
    expect(bad.out).toContain('balance 12, ledger sum 9');

    expect((await cli('no-such-command')).code).toBe(2);
  }, 180_000);
});
