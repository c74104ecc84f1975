/**
 * The sealer: seals the audit trail's rows, in id order and in batches, into its RFC 6962 Merkle tree
 * (merkle.ts) and writes a signed checkpoint per round (checkpoint.ts) to `audit_checkpoints`. Inserts
 * take no lock (migration 0027); this is Trillian's split of sequencer and signer, done by the app.
 *
 * Completeness with commits out of id order: an id is taken before its transaction commits, so a
 * lower id can become visible after a higher one. A round records a horizon: the highest id visible
 * and the transactions its snapshot saw running. The rows up to that horizon are sealed in a later
 * round, once none of those transactions is running any more: the id default (`audit_next_id()`)
 * gives a transaction its xid before its id, so any id below the horizon belongs to a transaction
 * that had committed or was running then; by now it has committed (its row is visible) or never will.
 *
 * Every server process runs rounds on a timer (AUDIT_SEAL_MS) under a transaction-scoped advisory
 * lock, so one seals at a time and the tree never forks; a round with nothing new writes nothing. A
 * failure (a database outage) is logged once and the next tick tries again.
 *
 * The anchor hands the newest signed checkpoint outside the database (AUDIT_CHECKPOINT_FILE,
 * AUDIT_CHECKPOINT_EMAIL) every AUDIT_CHECKPOINT_MINUTES when the tree grew; `audit_anchors` records
 * each hand-over, so the processes hand over once per period between them.
 */
import { appendFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, isEmbedded } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { logFailure } from '../../outage.ts';
import type { Mailer } from '../mail/mailer.ts';
import { CHAIN_COLUMNS, type StoredChainRow } from './chain.ts';
import { type NoteSigner, signCheckpoint } from './checkpoint.ts';
import { MerkleFrontier } from './merkle.ts';
import { newestCheckpoint, rowLeaf, type StoredCheckpoint } from './verify.ts';

/** pg_try_advisory_xact_lock keys: one sealer at a time, one anchor at a time. */
const SEAL_LOCK = sql.raw('7310595390160001');
const ANCHOR_LOCK = sql.raw('7310595390160002');
/** Rows read per query while sealing. */
const SEAL_BATCH = 5000;

export interface SealerOptions {
  db: Database;
  signer: NoteSigner;
  /** ms between rounds (AUDIT_SEAL_MS). */
  intervalMs: number;
  anchor?: {
    file?: string;
    email?: string;
    /** Minutes between hand-overs (AUDIT_CHECKPOINT_MINUTES). */
    minutes: number;
    mailer?: Mailer;
  };
  log?: { error(o: object, m: string): void; info?(o: object, m: string): void };
}

/** A horizon a round saw: the highest id visible and the snapshot it was seen in. */
interface Horizon {
  high: number;
  snapshot: string;
}

export interface SealResult {
  /** The checkpoint this round wrote (none: nothing to seal, not yet final, or another process's turn). */
  sealed: StoredCheckpoint | null;
  /** Whether this round held the lock. */
  locked: boolean;
}

const asNumber = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

/** Seals the rows after `last` through `high` (all final), and writes their checkpoint. */
async function sealThrough(
  tx: Executor,
  signer: NoteSigner,
  last: StoredCheckpoint | null,
  high: number,
): Promise<StoredCheckpoint | null> {
  const tree = last ? MerkleFrontier.of(last.treeSize, last.frontier) : MerkleFrontier.empty();
  // Nothing sealed yet: from the first row, whatever its id.
  let after: number | null = last ? last.lastId : null;
  const startSize = tree.size;
  while (after === null || after < high) {
    const rows = rowsOf<StoredChainRow>(
      await tx.execute(
        sql`select ${CHAIN_COLUMNS} from audit_events
            where ${after === null ? sql`true` : sql`id > ${after}`} and id <= ${high}
            order by audit_events.id limit ${SEAL_BATCH}`,
      ),
    );
    if (rows.length === 0) break;
    for (const row of rows) tree.append(rowLeaf(row));
    after = Number(rows[rows.length - 1]!.id);
    if (rows.length < SEAL_BATCH) break;
  }
  if (tree.size === startSize || after === null) return null;
  const root = tree.root();
  const note = signCheckpoint({ origin: signer.name, treeSize: tree.size, rootHash: root }, signer);
  const [row] = rowsOf<{ at: string | Date }>(
    await tx.execute(
      sql`insert into audit_checkpoints (tree_size, last_id, root_hash, frontier, note)
          values (${tree.size}, ${after}, ${root.toString('hex')}, ${JSON.stringify(tree.toJSON())}::jsonb, ${note})
          returning at`,
    ),
  );
  return {
    treeSize: tree.size,
    lastId: after,
    rootHash: root.toString('hex'),
    frontier: tree.toJSON(),
    at: new Date(row?.at ?? Date.now()).toISOString(),
    note,
  };
}

/**
 * Hands the newest checkpoint to the file and the auditor's address, when the period passed since the
 * last hand-over and the tree grew (or always with `force`); records it in `audit_anchors`. Answers
 * where it went; null when nothing is sealed yet.
 */
async function handOverCheckpoint(
  exec: Executor,
  target: NonNullable<SealerOptions['anchor']>,
  signer: NoteSigner,
  force: boolean,
): Promise<string[] | null> {
  const newest = await newestCheckpoint(exec);
  if (!newest) return null;
  const [previous] = rowsOf<{ tree_size: string | number; due: boolean }>(
    await exec.execute(
      sql`select tree_size, at <= now() - make_interval(mins => ${target.minutes}) as due
          from audit_anchors order by id desc limit 1`,
    ),
  );
  if (previous && !force && (!previous.due || asNumber(previous.tree_size) >= newest.treeSize)) return [];
  const went: string[] = [];
  if (target.file) {
    await appendFile(target.file, `${newest.note}\n`, { mode: 0o644 });
    went.push(`file ${target.file}`);
  }
  if (target.email && target.mailer) {
    await target.mailer.send({
      to: target.email,
      subject: `Audit checkpoint ${signer.name} ${newest.treeSize}`,
      text:
        `The audit trail of ${signer.name} as of ${newest.at}: ${newest.treeSize} rows sealed through ` +
        `row ${newest.lastId}. Keep this signed checkpoint; check the trail against it with\n` +
        `  npm run cli -- audit:verify --checkpoint <file> --key ${signer.vkey}\n\n${newest.note}`,
    });
    went.push(`mail ${target.email}`);
  }
  await exec.execute(
    sql`insert into audit_anchors (tree_size, destinations) values (${newest.treeSize}, ${went.join(', ')})`,
  );
  return went;
}

/**
 * One round, in the transaction given: under the sealers' lock, seal `horizon` (an earlier round's)
 * if it is final now, and answer the horizon to keep for the next round.
 */
async function sealRound(
  tx: Executor,
  signer: NoteSigner,
  seen: Horizon | null,
): Promise<{ result: SealResult; horizon: Horizon | null }> {
  let horizon = seen;
  const [lock] = rowsOf<{ locked: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${SEAL_LOCK}) as locked`),
  );
  if (!lock?.locked) return { result: { sealed: null, locked: false }, horizon };
  const last = await newestCheckpoint(tx);
  const sealedThrough = last?.lastId ?? 0;
  let sealed: StoredCheckpoint | null = null;
  // Another process sealed past it already.
  if (horizon && horizon.high <= sealedThrough) horizon = null;
  if (horizon) {
    // Final when none of the transactions that snapshot saw running is running now.
    const [state] = rowsOf<{ final: boolean }>(
      await tx.execute(sql`select not exists (
          select from pg_snapshot_xip(${horizon.snapshot}::pg_snapshot) as seen(xid)
          where seen.xid in (select pg_snapshot_xip(pg_current_snapshot()))
        ) as final`),
    );
    if (state?.final) {
      sealed = await sealThrough(tx, signer, last, horizon.high);
      horizon = null;
    }
  }
  const [now] = rowsOf<{ high: string | number | null; snapshot: string }>(
    await tx.execute(
      sql`select (select max(id) from audit_events) as high, pg_current_snapshot()::text as snapshot`,
    ),
  );
  const high = asNumber(now?.high);
  const through = sealed?.lastId ?? sealedThrough;
  // Keep an older horizon that is not final yet: it is final no later than a newer one.
  if (high > through && !horizon) horizon = { high, snapshot: now!.snapshot };
  return { result: { sealed, locked: true }, horizon };
}

export function createSealer(options: SealerOptions) {
  const { db, signer } = options;
  let horizon: Horizon | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<SealResult> | null = null;
  let failing = false;
  let anchorFailing = false;
  let lastAnchorTry = 0;
  let anchoring: Promise<string[] | null> | null = null;

  /** One round: seal the horizon recorded earlier if it is final, and record the one of now. */
  function round(): Promise<SealResult> {
    running ??= db
      .transaction(async (tx) => {
        const next = await sealRound(tx, signer, horizon);
        horizon = next.horizon;
        return next.result;
      })
      .then(
        (result) => {
          failing = false;
          return result;
        },
        (error: unknown) => {
          if (!failing) logFailure(options.log, error, {}, 'audit trail: sealing failed; trying again');
          failing = true;
          throw error;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  /**
   * Waits until every row committed before the call is sealed (for tests, the CLI and shutdown), up to
   * `timeoutMs`; answers the newest checkpoint.
   */
  async function sealNow(timeoutMs = 30_000): Promise<StoredCheckpoint | null> {
    const [row] = rowsOf<{ high: string | number | null }>(
      await db.execute(sql`select max(id) as high from audit_events`),
    );
    const target = asNumber(row?.high);
    const deadline = Date.now() + timeoutMs;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      await round().catch(() => undefined);
      const newest = await newestCheckpoint(db);
      if ((newest?.lastId ?? 0) >= target) return newest;
      if (Date.now() > deadline) {
        throw new Error(`audit trail: rows through ${target} not sealed within ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /**
   * Hands the newest checkpoint outside the database when the period passed since the last hand-over
   * and the tree grew (or always with `force`). Answers where it went (nothing when not due).
   */
  async function anchor(force = false): Promise<string[]> {
    return (await handOverNewest(force)) ?? [];
  }

  /** The hand-over; null when nothing is sealed yet (the timer then asks again at the next tick). */
  async function handOverNewest(force: boolean): Promise<string[] | null> {
    const target = options.anchor;
    if (!target || (!target.file && !target.email)) return [];
    const handOver = (exec: Executor) => handOverCheckpoint(exec, target, signer, force);
    // PGlite is one process (nobody to take turns with) and one connection: the outbox mailer's own
    // insert would wait for a transaction held around it.
    if (isEmbedded(db)) {
      anchoring ??= handOver(db).finally(() => {
        anchoring = null;
      });
      return anchoring;
    }
    return db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${ANCHOR_LOCK}) as locked`),
      );
      return lock?.locked ? handOver(tx) : [];
    });
  }

  /** A tick still running when the timer fires again (a slow round or hand-over): the new one is skipped. */
  let ticking = false;
  async function tick() {
    if (ticking) return;
    ticking = true;
    try {
      await tickOnce();
    } finally {
      ticking = false;
    }
  }

  async function tickOnce() {
    try {
      await round();
    } catch {
      return; // logged once by round()
    }
    const minutes = options.anchor?.minutes ?? 0;
    // The hand-over is looked at once a minute at most (its period is in minutes).
    if (minutes > 0 && Date.now() - lastAnchorTry >= Math.min(60_000, minutes * 60_000)) {
      try {
        // Nothing sealed yet: asked again at the next tick, not a minute later.
        if ((await handOverNewest(false)) !== null) lastAnchorTry = Date.now();
        anchorFailing = false;
      } catch (error) {
        lastAnchorTry = Date.now();
        if (!anchorFailing) {
          logFailure(
            options.log,
            error,
            {},
            'audit trail: the checkpoint could not be handed over; trying again',
          );
        }
        anchorFailing = true;
      }
    }
  }

  return {
    round,
    sealNow,
    anchor,
    start(): void {
      if (timer || options.intervalMs <= 0) return;
      timer = setInterval(() => void tick(), options.intervalMs);
      timer.unref();
    },
    /** Stops the timer, then seals what was committed (a few seconds at most). */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await sealNow(5000).catch(() => undefined);
    },
  };
}

export type Sealer = ReturnType<typeof createSealer>;
