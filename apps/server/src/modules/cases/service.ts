import { randomBytes } from 'node:crypto';
import {
  type CaseDetail,
  type CaseItem,
  type CaseNote,
  type CaseRole,
  type CaseStatus,
  type CaseSummary,
  casesMessages,
  caseTimeline,
  datesOf,
  entitiesOf,
  isAnswered,
  type LegalBasis,
  type LegalBasisKind,
  legalBasisLine,
  type TimelineEntry,
} from '@footprint/domain';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  caseItems,
  caseMembers,
  caseNotes,
  cases,
  lookupDates,
  lookupEntities,
  lookups,
  type UserRow,
  users,
} from '../../db/schema.ts';
import {
  caseOwnerOnly,
  closedCase,
  legalBasisMissing,
  legalBasisRequired,
  notFound,
  validationError,
} from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import type { FiledCase } from '../searches/ports.ts';

type CaseRow = typeof cases.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A case the caller may see, and how. */
interface Visible {
  row: CaseRow;
  role: CaseRole;
}

const legalBasisOf = (row: CaseRow): LegalBasis | null =>
  row.legalBasisKind && row.legalBasisNumber && row.legalBasisPurpose
    ? {
        kind: row.legalBasisKind as LegalBasisKind,
        number: row.legalBasisNumber,
        purpose: row.legalBasisPurpose,
      }
    : null;

/** The keys a case adds to every audit row of a search or action under it. */
export const caseAuditDetails = (filed: FiledCase | null): Record<string, unknown> =>
  filed?.id
    ? {
        case_id: filed.id,
        ...(filed.legalBasis ? { legal_basis: legalBasisLine(filed.legalBasis) } : {}),
      }
    : {};

const caseNotFound = () => notFound(casesMessages.notFound);

/** A reference of the case's own when none was given: `CASE-` and eight letters and digits. */
const newReference = () => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return `CASE-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
};

/**
 * Cases: who may see one (its owner, its members, admins; anyone else gets 404, as if it did not
 * exist), what they may do (members add searches and notes; the owner and admins also change it and
 * its members), the searches filed under it and the entities their results hold. Every change is
 * audited; every search under a case keeps the case and its legal basis on its audit rows.
 */
export function createCases(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const memberOf = (userId: string) =>
    sql`exists (select 1 from ${caseMembers} m where m.case_id = ${cases.id} and m.user_id = ${userId})`;

  async function visible(user: UserRow, id: string, executor: Executor = db): Promise<Visible> {
    if (!UUID.test(id)) throw caseNotFound();
    const [row] = await executor.select().from(cases).where(eq(cases.id, id));
    if (!row) throw caseNotFound();
    if (row.ownerId === user.id) return { row, role: 'owner' };
    const [member] = await executor
      .select({ userId: caseMembers.userId })
      .from(caseMembers)
      .where(and(eq(caseMembers.caseId, id), eq(caseMembers.userId, user.id)));
    if (member) return { row, role: 'member' };
    if (user.role === 'admin') return { row, role: 'admin' };
    throw caseNotFound();
  }

  const mayManage = (role: CaseRole) => role === 'owner' || role === 'admin';

  async function summaries(where: ReturnType<typeof sql>, viewer: UserRow): Promise<CaseSummary[]> {
    const owner = alias(users, 'owner');
    const rows = await db
      .select({
        row: cases,
        owner: { id: owner.id, name: owner.name, email: owner.email },
        items: sql<number>`(select count(*)::int from ${caseItems} i where i.case_id = ${cases.id})`,
        member: memberOf(viewer.id).mapWith(Boolean),
      })
      .from(cases)
      .innerJoin(owner, eq(owner.id, cases.ownerId))
      .where(where)
      .orderBy(desc(cases.updatedAt));
    return rows.map(({ row, owner: o, items, member }) =>
      present(row, o, row.ownerId === viewer.id ? 'owner' : member ? 'member' : 'admin', Number(items)),
    );
  }

  const present = (
    row: CaseRow,
    owner: { id: string; name: string; email: string },
    role: CaseRole,
    itemsCount: number,
  ): CaseSummary => ({
    id: row.id,
    title: row.title,
    reference: row.reference,
    status: row.status as CaseStatus,
    legal_basis: legalBasisOf(row),
    owner,
    role,
    items_count: itemsCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  async function summaryOf(user: UserRow, id: string): Promise<CaseSummary> {
    const [summary] = await summaries(sql`${cases.id} = ${id}`, user);
    if (!summary) throw caseNotFound();
    const { role } = await visible(user, id);
    return { ...summary, role };
  }

  const audit = (
    executor: Executor,
    user: UserRow,
    client: ClientContext | null,
    action: string,
    row: CaseRow,
    details: Record<string, unknown> = {},
  ) =>
    recordAudit(executor, {
      action,
      outcome: 'success',
      user,
      client,
      target: row.id,
      caseReference: row.reference,
      details: {
        ...caseAuditDetails({ id: row.id, reference: row.reference, legalBasis: legalBasisOf(row) }),
        ...details,
      },
    });

  /** Reads the entities and dated facts of the case's searches that were not read yet (once per search). */
  async function readEntities(caseId: string): Promise<void> {
    const due = await db
      .select({
        lookupId: caseItems.lookupId,
        kind: lookups.kind,
        result: lookups.result,
        cacheOf: lookups.cacheOf,
      })
      .from(caseItems)
      .innerJoin(lookups, eq(lookups.id, caseItems.lookupId))
      .where(and(eq(caseItems.caseId, caseId), eq(caseItems.entitiesRead, false)));
    if (due.length === 0) return;
    // A free repeat keeps no result of its own: its entities are those of the search it reused.
    const originals = due.filter((d) => d.result === null && d.cacheOf).map((d) => d.cacheOf!);
    const kept = new Map<string, unknown>();
    if (originals.length > 0) {
      for (const row of await db
        .select({ id: lookups.id, result: lookups.result })
        .from(lookups)
        .where(inArray(lookups.id, originals)))
        kept.set(row.id, row.result);
    }
    await db.transaction(async (tx) => {
      for (const item of due) {
        const result = item.result ?? (item.cacheOf ? kept.get(item.cacheOf) : null) ?? null;
        const entities = result === null ? [] : entitiesOf(item.kind, result);
        const dates = result === null ? [] : datesOf(item.kind, result);
        if (dates.length > 0) {
          await tx
            .insert(lookupDates)
            .values(dates.map((d) => ({ lookupId: item.lookupId, ...d })))
            .onConflictDoNothing();
        }
        if (entities.length > 0) {
          await tx
            .insert(lookupEntities)
            .values(
              entities.map((e) => ({
                lookupId: item.lookupId,
                type: e.type,
                value: e.value,
                sources: e.sources,
              })),
            )
            .onConflictDoNothing();
        }
      }
      await tx
        .update(caseItems)
        .set({ entitiesRead: true })
        .where(
          and(
            eq(caseItems.caseId, caseId),
            inArray(
              caseItems.lookupId,
              due.map((d) => d.lookupId),
            ),
          ),
        );
    });
  }

  async function itemsOf(caseId: string): Promise<CaseItem[]> {
    const runner = alias(users, 'runner');
    const original = alias(lookups, 'original');
    const rows = await db
      .select({
        lookup: {
          id: lookups.id,
          kind: lookups.kind,
          query: lookups.query,
          queryTyped: lookups.queryTyped,
          status: lookups.status,
          cost: lookups.cost,
          sandbox: lookups.sandbox,
          createdAt: lookups.createdAt,
        },
        kept: sql<boolean>`(${lookups.result} is not null or ${original.result} is not null)`.mapWith(
          Boolean,
        ),
        user: { id: runner.id, name: runner.name, email: runner.email },
        addedAt: caseItems.addedAt,
      })
      .from(caseItems)
      .innerJoin(lookups, eq(lookups.id, caseItems.lookupId))
      .leftJoin(original, eq(original.id, lookups.cacheOf))
      .innerJoin(runner, eq(runner.id, lookups.userId))
      .where(eq(caseItems.caseId, caseId))
      .orderBy(asc(lookups.createdAt));
    return rows.map(({ lookup, kept, user, addedAt }) => ({
      lookup_id: lookup.id,
      kind: lookup.kind,
      query: lookup.query,
      query_typed: lookup.queryTyped,
      status: lookup.status,
      cost: lookup.cost,
      sandbox: lookup.sandbox,
      user,
      created_at: lookup.createdAt.toISOString(),
      added_at: addedAt.toISOString(),
      result_available: kept && isAnswered(lookup.status),
    }));
  }

  /**
   * The case's entities: one per type and value (names, addresses and employers compared without
   * regard to case), with every source and search that gave it, and the other cases the viewer can
   * see whose searches found it too.
   */
  async function entitiesOfCase(viewer: UserRow, caseId: string): Promise<CaseDetail['entities']> {
    const rows = rowsOf<{
      type: string;
      value: string;
      sources: string[] | string;
      items: string[] | string;
      other_cases: Array<{ id: string; title: string; reference: string }> | string | null;
    }>(
      await db.execute(sql`
        with mine as (
          select e.type,
                 case when e.type in ('name', 'address', 'employer', 'username') then lower(e.value) else e.value end as key,
                 min(e.value) as value,
                 jsonb_agg(distinct s.source) as sources,
                 jsonb_agg(distinct e.lookup_id) as items
          from ${caseItems} i
          join ${lookupEntities} e on e.lookup_id = i.lookup_id
          cross join lateral jsonb_array_elements_text(e.sources) as s(source)
          where i.case_id = ${caseId}
          group by 1, 2
        ), seen as (
          select c.id, c.title, c.reference from ${cases} c
          where c.id <> ${caseId}
            and (c.owner_id = ${viewer.id}
              or exists (select 1 from ${caseMembers} m where m.case_id = c.id and m.user_id = ${viewer.id}))
        ), theirs as (
          -- Set-based, from the viewer's other cases (a per-entity subquery cost ~1 ms per entity).
          select mine.type, mine.key,
                 jsonb_agg(distinct jsonb_build_object('id', seen.id, 'title', seen.title, 'reference', seen.reference)) as other_cases
          from seen
          join ${caseItems} oi on oi.case_id = seen.id
          join ${lookupEntities} oe on oe.lookup_id = oi.lookup_id
          join mine on mine.type = oe.type
            and mine.key = (case when oe.type in ('name', 'address', 'employer', 'username') then lower(oe.value) else oe.value end)
          group by 1, 2
        )
        select mine.type, mine.value, mine.sources, mine.items, theirs.other_cases
        from mine
        left join theirs on theirs.type = mine.type and theirs.key = mine.key
        order by mine.type, mine.value
      `),
    );
    const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
    return rows.map((row) => {
      const sources = json<string[]>(row.sources).sort();
      const items = json<string[]>(row.items);
      return {
        type: row.type,
        value: row.value,
        sources,
        items,
        corroborated: sources.length >= 2 || items.length >= 2,
        other_cases: row.other_cases === null ? [] : json(row.other_cases),
      };
    });
  }

  /** The case's timeline: its searches and the dated facts their results hold (read by readEntities). */
  async function timelineOf(caseId: string, items: CaseItem[]): Promise<TimelineEntry[]> {
    const facts = await db
      .select({
        at: lookupDates.at,
        label: lookupDates.label,
        source: lookupDates.source,
        lookup_id: lookupDates.lookupId,
      })
      .from(caseItems)
      .innerJoin(lookupDates, eq(lookupDates.lookupId, caseItems.lookupId))
      .where(eq(caseItems.caseId, caseId));
    return caseTimeline(items, facts);
  }

  async function notesOf(caseId: string): Promise<CaseNote[]> {
    const rows = await db
      .select({ note: caseNotes, author: { id: users.id, name: users.name, email: users.email } })
      .from(caseNotes)
      .innerJoin(users, eq(users.id, caseNotes.authorId))
      .where(eq(caseNotes.caseId, caseId))
      .orderBy(asc(caseNotes.createdAt), asc(caseNotes.id));
    return rows.map(({ note, author }) => ({
      id: note.id,
      author,
      body: note.body,
      created_at: note.createdAt.toISOString(),
    }));
  }

  async function membersOf(caseId: string) {
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email, addedAt: caseMembers.addedAt })
      .from(caseMembers)
      .innerJoin(users, eq(users.id, caseMembers.userId))
      .where(eq(caseMembers.caseId, caseId))
      .orderBy(asc(caseMembers.addedAt));
    return rows.map(({ addedAt, ...person }) => ({ ...person, added_at: addedAt.toISOString() }));
  }

  const touch = (executor: Executor, caseId: string) =>
    executor.update(cases).set({ updatedAt: now() }).where(eq(cases.id, caseId));

  async function insertItem(executor: Executor, caseId: string, lookupId: string, userId: string) {
    const inserted = await executor
      .insert(caseItems)
      .values({ caseId, lookupId, addedBy: userId, addedAt: now() })
      .onConflictDoNothing()
      .returning({ lookupId: caseItems.lookupId });
    if (inserted.length > 0) await touch(executor, caseId);
    return inserted.length > 0;
  }

  /**
   * The case a lookup is filed under (the case of a given reference first, then the earliest filing),
   * for its reports' legal basis: prepared once, since every report asks.
   */
  const prepareCaseOfLookup = () =>
    db
      .select({ case: cases })
      .from(cases)
      .innerJoin(caseItems, eq(caseItems.caseId, cases.id))
      .where(eq(caseItems.lookupId, sql.placeholder('lookupId')))
      .orderBy(
        sql`lower(${cases.reference}) = lower(${sql.placeholder('reference')}) desc`,
        asc(caseItems.addedAt),
      )
      .limit(1)
      .prepare('footprint_case_of_lookup');
  let caseOfLookup: ReturnType<typeof prepareCaseOfLookup> | undefined;

  return {
    /**
     * The legal basis a report of this lookup prints: that of the case it is filed under (the case of
     * its own reference first, when it is in several), as one line; null when its case has none.
     */
    async legalBasisOfLookup(lookupId: string, caseReference: string | null): Promise<string | null> {
      caseOfLookup ??= prepareCaseOfLookup();
      const [row] = await caseOfLookup.execute({ lookupId, reference: caseReference ?? '' });
      const basis = row ? legalBasisOf(row.case) : null;
      return basis ? legalBasisLine(basis) : null;
    },

    /**
     * The case a search with this (checked) reference files itself under: the user's own case of that
     * reference, else one they are a member of (the most recently active), else a new case of theirs
     * titled with the reference. A closed case, or one without a legal basis while the deployment
     * requires one, refuses the search before anything is charged.
     */
    async forSearch(
      user: UserRow,
      reference: string | null,
      options: { legalBasisRequired: boolean },
    ): Promise<FiledCase | null> {
      if (reference === null) {
        if (options.legalBasisRequired) throw legalBasisRequired();
        return null;
      }
      const match = sql`lower(${cases.reference}) = lower(${reference})`;
      const [found] = await db
        .select()
        .from(cases)
        .where(and(match, or(eq(cases.ownerId, user.id), memberOf(user.id))))
        .orderBy(sql`${cases.ownerId} = ${user.id} desc`, desc(cases.updatedAt))
        .limit(1);
      const row = found;
      if (!row) {
        if (options.legalBasisRequired) throw legalBasisMissing(reference);
        return { id: null, reference, legalBasis: null };
      }
      if (row.status === 'closed') throw closedCase(row.reference);
      const legalBasis = legalBasisOf(row);
      if (options.legalBasisRequired && !legalBasis) throw legalBasisMissing(row.reference);
      return { id: row.id, reference: row.reference, legalBasis };
    },

    /**
     * Files a search under its case (idempotent), opening the case first when the search names a new
     * reference (then `filed.id` is set, for the search's own audit rows).
     */
    async file(filed: FiledCase, lookupId: string, user: UserRow): Promise<void> {
      if (filed.id === null) {
        const match = sql`lower(${cases.reference}) = lower(${filed.reference})`;
        const [created] = await db
          .insert(cases)
          .values({
            ownerId: user.id,
            title: filed.reference,
            reference: filed.reference,
            createdAt: now(),
            updatedAt: now(),
          })
          .onConflictDoNothing()
          .returning();
        const row =
          created ??
          (
            await db
              .select()
              .from(cases)
              .where(and(match, eq(cases.ownerId, user.id)))
          )[0];
        if (!row) throw new Error('a case could not be opened for a search');
        if (created)
          await audit(db, user, null, 'case.create', created, { title: created.title, by_search: true });
        filed.id = row.id;
        filed.reference = row.reference;
      }
      await insertItem(db, filed.id, lookupId, user.id);
    },

    async create(
      user: UserRow,
      input: { title: string; reference?: string | undefined; legal_basis?: LegalBasis | null | undefined },
      client: ClientContext,
    ): Promise<CaseSummary> {
      const reference = input.reference ?? newReference();
      const basis = input.legal_basis ?? null;
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(cases)
          .values({
            ownerId: user.id,
            title: input.title,
            reference,
            legalBasisKind: basis?.kind ?? null,
            legalBasisNumber: basis?.number ?? null,
            legalBasisPurpose: basis?.purpose ?? null,
            createdAt: now(),
            updatedAt: now(),
          })
          .onConflictDoNothing()
          .returning();
        if (!created) {
          throw validationError({ reference: ['You already have a case with this reference.'] });
        }
        await audit(tx, user, client, 'case.create', created, { title: created.title });
        return created;
      });
      return present(row, { id: user.id, name: user.name, email: user.email }, 'owner', 0);
    },

    async list(user: UserRow, status?: CaseStatus): Promise<CaseSummary[]> {
      const mine = sql`(${cases.ownerId} = ${user.id} or ${memberOf(user.id)})`;
      return summaries(status ? sql`${mine} and ${cases.status} = ${status}` : mine, user);
    },

    async get(user: UserRow, id: string): Promise<CaseDetail> {
      const { row } = await visible(user, id);
      await readEntities(row.id);
      const itemsRead = itemsOf(row.id);
      const [summary, members, notes, items, entities, timeline] = await Promise.all([
        summaryOf(user, row.id),
        membersOf(row.id),
        notesOf(row.id),
        itemsRead,
        entitiesOfCase(user, row.id),
        itemsRead.then((items) => timelineOf(row.id, items)),
      ]);
      return { ...summary, members, notes, items, entities, timeline };
    },

    async items(user: UserRow, id: string): Promise<CaseItem[]> {
      const { row } = await visible(user, id);
      return itemsOf(row.id);
    },

    async update(
      user: UserRow,
      id: string,
      patch: {
        title?: string | undefined;
        status?: CaseStatus | undefined;
        legal_basis?: LegalBasis | null | undefined;
      },
      client: ClientContext,
    ): Promise<CaseSummary> {
      const { row, role } = await visible(user, id);
      if (!mayManage(role)) throw caseOwnerOnly();
      const basis = patch.legal_basis;
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (patch.title !== undefined && patch.title !== row.title)
        changes.title = { from: row.title, to: patch.title };
      if (patch.status !== undefined && patch.status !== row.status)
        changes.status = { from: row.status, to: patch.status };
      if (basis !== undefined) {
        const before = legalBasisOf(row);
        const from = before ? legalBasisLine(before) : null;
        const to = basis ? legalBasisLine(basis) : null;
        if (from !== to) changes.legal_basis = { from, to };
      }
      if (Object.keys(changes).length === 0) return summaryOf(user, row.id);
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(cases)
          .set({
            ...(patch.title !== undefined ? { title: patch.title } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(basis !== undefined
              ? {
                  legalBasisKind: basis?.kind ?? null,
                  legalBasisNumber: basis?.number ?? null,
                  legalBasisPurpose: basis?.purpose ?? null,
                }
              : {}),
            updatedAt: now(),
          })
          .where(eq(cases.id, row.id))
          .returning();
        await audit(tx, user, client, 'case.update', updated ?? row, { changes });
      });
      return summaryOf(user, row.id);
    },

    async addMember(user: UserRow, id: string, email: string, client: ClientContext) {
      const { row, role } = await visible(user, id);
      if (!mayManage(role)) throw caseOwnerOnly();
      const [member] = await db
        .select({ id: users.id, status: users.status })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      if (member?.status !== 'active') {
        throw validationError({ email: [casesMessages.memberUnknown] });
      }
      if (member.id === row.ownerId) throw validationError({ email: [casesMessages.memberIsOwner] });
      await db.transaction(async (tx) => {
        const added = await tx
          .insert(caseMembers)
          .values({ caseId: row.id, userId: member.id, addedBy: user.id, addedAt: now() })
          .onConflictDoNothing()
          .returning({ userId: caseMembers.userId });
        if (added.length === 0) throw validationError({ email: [casesMessages.memberAlready] });
        await touch(tx, row.id);
        await audit(tx, user, client, 'case.member.add', row, { member_id: member.id, member_email: email });
      });
      return membersOf(row.id);
    },

    async removeMember(user: UserRow, id: string, memberId: string, client: ClientContext) {
      const { row, role } = await visible(user, id);
      // A member may leave; only the owner (or an admin) removes someone else.
      if (!mayManage(role) && memberId !== user.id) throw caseOwnerOnly();
      if (!UUID.test(memberId)) throw notFound(casesMessages.memberNotFound);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(caseMembers)
          .where(and(eq(caseMembers.caseId, row.id), eq(caseMembers.userId, memberId)))
          .returning({ userId: caseMembers.userId });
        if (removed.length === 0) throw notFound(casesMessages.memberNotFound);
        await touch(tx, row.id);
        await audit(tx, user, client, 'case.member.remove', row, { member_id: memberId });
      });
      return memberId === user.id && role === 'member' ? [] : membersOf(row.id);
    },

    async addNote(user: UserRow, id: string, body: string, client: ClientContext): Promise<CaseNote> {
      const { row } = await visible(user, id);
      if (row.status === 'closed') throw closedCase();
      const note = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(caseNotes)
          .values({ caseId: row.id, authorId: user.id, body, createdAt: now() })
          .returning();
        await touch(tx, row.id);
        await audit(tx, user, client, 'case.note.add', row, { note_id: created!.id });
        return created!;
      });
      return {
        id: note.id,
        author: { id: user.id, name: user.name, email: user.email },
        body: note.body,
        created_at: note.createdAt.toISOString(),
      };
    },

    /** Files one of the caller's own searches under a case they can see ("Add to case"). */
    async addItem(user: UserRow, id: string, lookupId: string, client: ClientContext): Promise<CaseItem[]> {
      const { row } = await visible(user, id);
      if (row.status === 'closed') throw closedCase();
      const [lookup] = UUID.test(lookupId)
        ? await db
            .select({ id: lookups.id })
            .from(lookups)
            .where(and(eq(lookups.id, lookupId), eq(lookups.userId, user.id)))
        : [];
      if (!lookup) throw notFound(casesMessages.lookupNotFound);
      await db.transaction(async (tx) => {
        if (!(await insertItem(tx, row.id, lookup.id, user.id))) {
          throw validationError({ lookup_id: [casesMessages.itemAlready] });
        }
        await audit(tx, user, client, 'case.item.add', row, { lookup_id: lookup.id });
      });
      return itemsOf(row.id);
    },
  };
}

export type Cases = ReturnType<typeof createCases>;
