// The query as typed, kept by the paid search for every kind: cleaned of control characters and
// capped before it is stored, beside the normalized query; and a "no record" answer as its own outcome.
import { QUERY_TYPED_MAX } from '@footprint/domain';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { auditEvents, lookups } from '../../src/db/schema.ts';
import { createKeySpending } from '../../src/modules/api-keys/spending.ts';
import { caseFilingOf } from '../../src/modules/cases/filing.ts';
import { createCases } from '../../src/modules/cases/service.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createSearches, type Searches } from '../../src/modules/searches/service.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
let searches: Searches;
const client = { ip: '127.0.0.1', deviceId: undefined, userAgent: undefined };

beforeAll(async () => {
  handle = await createTestDatabase();
  searches = createSearches({
    db: handle.db,
    cacheHours: 24,
    settings: { registrationMode: 'open', lookupRetentionDays: 30 },
    cases: caseFilingOf(createCases({ db: handle.db })),
    keySpending: createKeySpending({ db: handle.db }),
  });
});
afterAll(() => handle.close());

async function run(queryTyped: string, options: { query?: string; noRecord?: boolean } = {}) {
  const user = await createUser(handle.db, { credits: 5 });
  const searched = await searches.run({
    user,
    client,
    kind: 'email',
    query: options.query ?? 'a@example.test',
    queryTyped,
    cost: 1,
    caseReference: await searches.caseReference(undefined, user),
    reuse: 'never',
    ask: async () => ({
      ok: true,
      value: null,
      answered: ['gravatar'],
      errors: {},
      result: { payloads: {}, errors: {} },
      sandbox: true,
      ...(options.noRecord ? { noRecord: true } : {}),
    }),
  });
  const [row] = await handle.db.select().from(lookups).where(eq(lookups.id, searched.lookupId));
  const [audit] = await handle.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, user.id), like(auditEvents.action, 'lookup.%')));
  return { row: row!, audit: audit!, searched };
}

describe('the typed query', () => {
  it('is stored as typed, beside the normalized query, in the row and the audit details', async () => {
    const { row, audit } = await run('  A@Example.TEST ');
    expect(row).toMatchObject({ query: 'a@example.test', queryTyped: 'A@Example.TEST', status: 'complete' });
    expect(audit).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ query_typed: 'A@Example.TEST', query: 'a@example.test' }),
    });
  });

  it('loses NUL bytes, control characters and invisible direction marks; line breaks become spaces', async () => {
    const { row, audit } = await run(
      'Ro\u0000han\u0007\u001b[31m\tDesh\u202emukh\u200b\r\nPune\u0085x\u009f',
    );
    expect(row.queryTyped).toBe('Rohan[31m Deshmukh  Pune x');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that must be gone
    expect(row.queryTyped).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e]/);
    expect((audit.details as Record<string, unknown>).query_typed).toBe(row.queryTyped);
  });

  it('is capped at QUERY_TYPED_MAX characters without splitting a character', async () => {
    const { row } = await run(`${'😀'.repeat(QUERY_TYPED_MAX + 50)}`);
    const chars = Array.from(row.queryTyped);
    expect(chars).toHaveLength(QUERY_TYPED_MAX);
    expect(chars.at(-1)).toBe('…');
    expect(chars.slice(0, -1).every((c) => c === '😀')).toBe(true);
  });

  it('falls back to the normalized query when nothing typed is left', async () => {
    const { row } = await run('\u0000\u0001 \u200b', { query: 'b@example.test' });
    expect(row.queryTyped).toBe('b@example.test');
  });
});

describe('a no-record answer', () => {
  it('is no_record in the row and the trail, its result kept and its charge refunded (the charging rule)', async () => {
    const { row, audit, searched } = await run('c@example.test', { query: 'c@example.test', noRecord: true });
    expect(row).toMatchObject({
      status: 'no_record',
      cost: 1,
      sourcesAnswered: ['gravatar'],
      result: { payloads: {}, errors: {} },
      sandbox: true,
    });
    expect(audit).toMatchObject({
      outcome: 'no_record',
      cost: 0,
      details: expect.objectContaining({ refunded: 1 }),
    });
    expect(searched.credits).toBe(5);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  it('is refused by the database for an unknown status or outcome', async () => {
    const user = await createUser(handle.db);
    await expect(
      handle.db.insert(lookups).values({
        userId: user.id,
        kind: 'tel',
        query: 'q',
        queryTyped: 'q',
        cost: 0,
        status: 'failed' as 'complete',
      }),
    ).rejects.toThrow();
    await expect(
      handle.db.insert(auditEvents).values({ action: 'lookup.tel', outcome: 'oops' as 'success' }),
    ).rejects.toThrow();
  });
});
