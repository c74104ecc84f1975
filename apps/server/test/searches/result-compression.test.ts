import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { createTestDatabase, databaseKind } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const one = async <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(await handle.db.execute(statement))[0]!;

describe("a lookup's stored answer is compressed with LZ4 where the server has it", () => {
  it('sets LZ4 on lookups.result on a server built with it, and leaves PGlite on pglz', async () => {
    const { lz4 } = await one<{ lz4: boolean }>(
      sql`select 'lz4' = any (enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
    );
    const { method } = await one<{ method: string }>(
      sql`select attcompression::text as method from pg_attribute
          where attrelid = 'lookups'::regclass and attname = 'result'`,
    );
    // Debian's PostgreSQL (CI) is built with LZ4; PGlite is not.
    expect(lz4).toBe(databaseKind() === 'postgres');
    expect(method).toBe(lz4 ? 'l' : '');
  });
});
