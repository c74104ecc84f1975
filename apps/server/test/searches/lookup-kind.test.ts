import { SEARCH_KINDS } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { lookups } from '../../src/db/schema.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

describe('lookups.kind', () => {
  it('accepts every search kind of the domain', async () => {
    const owner = await createUser(handle.db);
    const rows = await handle.db
      .insert(lookups)
      .values(SEARCH_KINDS.map((kind) => ({ userId: owner.id, kind, query: 'q', queryTyped: 'q', cost: 0 })))
      .returning({ kind: lookups.kind });
    expect(rows.map((row) => row.kind)).toEqual([...SEARCH_KINDS]);
  });

  it.each(['phone', 'corporate', 'corporate:unknown', 'TEL', ''])('refuses %j', async (kind) => {
    const owner = await createUser(handle.db);
    await expect(
      handle.db.insert(lookups).values({ userId: owner.id, kind, query: 'q', queryTyped: 'q', cost: 0 }),
    ).rejects.toThrow();
  });
});
