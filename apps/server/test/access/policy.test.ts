// The access policy against a real database: whose work a query scope lets through, a case's roles,
// and the decisions made on a row in hand.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caseRoleOf,
  casesSeenBy,
  changes,
  keyMayCall,
  managesCase,
  own,
  readsReportOf,
  removesMember,
  sees,
} from '../../src/access/policy.ts';
import { caseMembers, cases, lookups, passkeys, watches } from '../../src/db/schema.ts';
import { createTestApp, createUser, type TestApp } from '../support/app.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof createUser>>;
let bob: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.db, { appMode: 'live' });
  bob = await createUser(t.db, { appMode: 'live' });
  admin = await createUser(t.db, { appMode: 'live', role: 'admin' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const lookupOf = async (userId: string) => {
  const [row] = await t.db
    .insert(lookups)
    .values({
      userId,
      kind: 'tel',
      query: '919876543210',
      queryTyped: '9876543210',
      cost: 1,
      status: 'complete',
    })
    .returning();
  return row!;
};

describe('work', () => {
  it("lets each user's scope through their own searches and watches, never another user's", async () => {
    const mine = await lookupOf(alice.id);
    const theirs = await lookupOf(bob.id);
    const seen = await t.db
      .select({ id: lookups.id })
      .from(lookups)
      .where(and(sees(alice, lookups), eq(lookups.query, '919876543210')));
    expect(seen.map((r) => r.id)).toContain(mine.id);
    expect(seen.map((r) => r.id)).not.toContain(theirs.id);

    const [watch] = await t.db
      .insert(watches)
      .values({
        userId: bob.id,
        kind: 'tel',
        query: '919876543210',
        queryTyped: '9876543210',
        schedule: 'daily',
        nextRunAt: new Date(),
      })
      .returning();
    const [asAlice] = await t.db
      .select()
      .from(watches)
      .where(and(eq(watches.id, watch!.id), changes(alice, watches)));
    const [asBob] = await t.db
      .select()
      .from(watches)
      .where(and(eq(watches.id, watch!.id), changes(bob, watches)));
    expect(asAlice).toBeUndefined();
    expect(asBob?.id).toBe(watch!.id);
    // An admin administers accounts; the work lists stay the holder's.
    const [asAdmin] = await t.db
      .select()
      .from(watches)
      .where(and(eq(watches.id, watch!.id), sees(admin, watches)));
    expect(asAdmin).toBeUndefined();
  });

  it("keeps credentials their holder's alone", async () => {
    await t.db.insert(passkeys).values({
      userId: alice.id,
      credentialId: `cred-${alice.id}`,
      publicKey: 'AA',
      counter: 0,
      name: 'Laptop',
    });
    expect(await t.db.select().from(passkeys).where(own(passkeys, alice.id))).toHaveLength(1);
    expect(await t.db.select().from(passkeys).where(own(passkeys, admin.id))).toHaveLength(0);
  });

  it('lets a report be read by its holder and by an admin verifying it, nobody else', async () => {
    expect(await readsReportOf(t.db, alice, alice.id)).toBe(true);
    expect(await readsReportOf(t.db, admin, alice.id)).toBe(true);
    expect(await readsReportOf(t.db, bob, alice.id)).toBe(false);
  });

  it("lets an API key call only its scopes' operations, and none without a scope", () => {
    expect(keyMayCall({ scopes: ['lookups'] }, 'lookups')).toBe(true);
    expect(keyMayCall({ scopes: ['lookups'] }, 'bulk')).toBe(false);
    expect(keyMayCall({ scopes: ['lookups', 'bulk'] }, undefined)).toBe(false);
  });
});

describe('cases', () => {
  it('gives the owner, a member, an admin and a stranger their roles, and lists only the first two', async () => {
    const [row] = await t.db
      .insert(cases)
      .values({ ownerId: alice.id, title: 'Policy case', reference: `POL-${alice.id.slice(0, 6)}` })
      .returning();
    const stranger = await createUser(t.db, { appMode: 'live' });
    await t.db.insert(caseMembers).values({ caseId: row!.id, userId: bob.id, addedBy: alice.id });
    expect(await caseRoleOf(t.db, alice, row!)).toBe('owner');
    expect(await caseRoleOf(t.db, bob, row!)).toBe('member');
    expect(await caseRoleOf(t.db, admin, row!)).toBe('admin');
    expect(await caseRoleOf(t.db, stranger, row!)).toBeUndefined();

    const listed = async (user: { id: string }) =>
      (await t.db.select({ id: cases.id }).from(cases).where(casesSeenBy(user))).map((r) => r.id);
    expect(await listed(alice)).toContain(row!.id);
    expect(await listed(bob)).toContain(row!.id);
    expect(await listed(stranger)).not.toContain(row!.id);
    expect(await listed(admin)).not.toContain(row!.id);

    expect(managesCase('owner') && managesCase('admin')).toBe(true);
    expect(managesCase('member')).toBe(false);
    expect(removesMember('member', bob, bob.id)).toBe(true);
    expect(removesMember('member', bob, stranger.id)).toBe(false);
    expect(removesMember('owner', alice, bob.id)).toBe(true);
  });
});
