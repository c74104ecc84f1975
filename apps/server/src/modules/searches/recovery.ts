import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lookups } from '../../db/schema.ts';
import { logFailure } from '../../outage.ts';
import { type AuditEntry, recordAudit } from '../audit/service.ts';
import { applyCreditChange } from '../credits/service.ts';

const BATCH = 200;

/**
 * Refunds paid lookups that were charged but never settled because the process serving them died
 * (kill -9, a crash, a lost host). A lookup still 'pending' long after every provider's timeout
 * cannot still be running anywhere, so its charge goes back through the ledger, once: the row is
 * claimed with FOR UPDATE SKIP LOCKED and only a row still pending is refunded, so two servers
 * sweeping at once, or a late settle, can never refund twice. Returns how many were refunded.
 */
export async function refundAbandonedLookups(
  db: Database,
  options: { olderThan: Date; now?: () => Date },
): Promise<number> {
  const now = options.now ?? (() => new Date());
  let refunded = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          id: lookups.id,
          userId: lookups.userId,
          kind: lookups.kind,
          query: lookups.query,
          cost: lookups.cost,
          ip: lookups.ip,
          deviceId: lookups.deviceId,
          caseReference: lookups.caseReference,
          email: sql<string>`(select email from users where users.id = ${lookups.userId})`,
        })
        .from(lookups)
        .where(and(eq(lookups.status, 'pending'), lt(lookups.createdAt, options.olderThan)))
        .orderBy(asc(lookups.createdAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      const events: AuditEntry[] = [];
      for (const row of rows) {
        await tx
          .update(lookups)
          .set({
            status: 'refunded',
            completedAt: now(),
            sourceErrors: sql`${lookups.sourceErrors} || '{"_lookup":"abandoned: the serving process stopped before the answer"}'::jsonb`,
          })
          .where(eq(lookups.id, row.id));
        if (row.cost > 0) {
          await applyCreditChange(tx, {
            userId: row.userId,
            delta: row.cost,
            kind: 'refund',
            reason: 'Lookup abandoned by a stopped server',
            lookupId: row.id,
          });
        }
        events.push({
          action: `lookup.${row.kind}`,
          outcome: 'failure',
          user: { id: row.userId, email: row.email },
          client: { ip: row.ip ?? '', deviceId: row.deviceId ?? undefined },
          target: row.query,
          cost: 0,
          caseReference: row.caseReference,
          details: { lookup_id: row.id, reason: 'abandoned', refunded: row.cost },
        });
      }
      // Last in the transaction: the audit chain's lock is held from the insert to the commit, so
      // nothing else may be waited for after it (a balance another writer holds would deadlock).
      await recordAudit(tx, events);
      return rows.length;
    });
    refunded += done;
    if (done < BATCH) return refunded;
  }
}

/**
 * Runs the sweep at start (a previous process may have died mid-lookup) and then every
 * min(abandon age, 60 s), on an unref'd timer. Returns the function that stops it.
 */
export function scheduleRecovery(
  db: Database,
  abandonSeconds: number,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const refunded = await refundAbandonedLookups(db, {
        olderThan: new Date(Date.now() - abandonSeconds * 1000),
      });
      if (refunded > 0) log.info({ refunded }, 'refunded lookups abandoned by a stopped server');
    } catch (err) {
      logFailure(log, err, {}, 'recovery sweep failed');
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(sweep, Math.min(abandonSeconds, 60) * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
