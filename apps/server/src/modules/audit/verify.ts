/**
 * Verification of the whole audit trail from its rows, in id order, a batch at a time:
 *
 *   - the legacy hash chain (rows written before migration 0027, through the frozen `audit_chain_head`):
 *     each row's prev_hash is the previous row's hash and its hash is the recomputed one;
 *   - the Merkle tree that seals every row (legacy ones too): the first N rows hash to the root that
 *     each stored checkpoint of size N records, the N-th row is its last_id, its frontier is the
 *     recomputed one and, given the verifier key, its signed note verifies and says the same;
 *   - rows after the newest checkpoint are not sealed yet: counted, not verified.
 *
 * `verifyAgainstKept` checks the trail against checkpoints kept outside the database instead of the
 * stored ones, so a rewrite of the whole table and of its checkpoints is found too.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  CHAIN_COLUMNS,
  type ChainHead,
  canonicalContent,
  chainHash,
  GENESIS_HASH,
  readChainHead,
  type StoredChainRow,
} from './chain.ts';
import { type Checkpoint, type NoteVerifier, openCheckpoint } from './checkpoint.ts';
import { leafHash, MerkleFrontier } from './merkle.ts';

export const short = (hash: string | null) => (hash === null ? 'NULL' : `${hash.slice(0, 16)}…`);

/** A point of the trail that has been verified (id 0: before the first row). */
export interface TrailPosition {
  id: number;
  at: string | null;
  /** The row's legacy chain hash, or for a row since 0027 its Merkle leaf hash (hex). */
  hash: string;
  /** Rows verified from the first row through this one: the Merkle tree's size there. */
  rows: number;
  /** The legacy chain's hash at this point (the last legacy row's). */
  chain: string;
  /** The Merkle tree of the rows through this one. */
  tree: MerkleFrontier;
}

export const TRAIL_START: TrailPosition = {
  id: 0,
  at: null,
  hash: GENESIS_HASH,
  rows: 0,
  chain: GENESIS_HASH,
  tree: MerkleFrontier.empty(),
};

export interface TrailBreak {
  id: number;
  /** The row's time (UTC ISO); null when the break is not one row. */
  at: string | null;
  /** content/link/head: the legacy chain; checkpoint: the Merkle tree against a checkpoint. */
  reason: 'content' | 'link' | 'head' | 'checkpoint';
  message: string;
}

/** A stored checkpoint as the sealer wrote it. */
export interface StoredCheckpoint {
  treeSize: number;
  lastId: number;
  rootHash: string;
  frontier: string[];
  at: string;
  note: string;
}

export interface TrailVerification {
  /** intact: verified through the newest checkpoint; partial: stopped at the row limit; broken: see `broken`. */
  status: 'intact' | 'partial' | 'broken';
  /** Rows read in this call. */
  checked: number;
  verified: TrailPosition;
  /** The end of the legacy chain (frozen). */
  head: ChainHead;
  /** The newest checkpoint when the call started (null: nothing sealed yet). */
  checkpoint: StoredCheckpoint | null;
  /** Stored checkpoints checked in this call. */
  checkpointsChecked: number;
  /** Rows after the newest checkpoint: written, not sealed yet. */
  pending: number;
  broken: TrailBreak | null;
}

export interface VerifyOptions {
  from?: TrailPosition;
  maxRows?: number;
  batchSize?: number;
  /** Also check each stored checkpoint's signed note with this key. */
  verifier?: NoteVerifier;
}

interface Row extends StoredChainRow {}

/** Rows after the row `after` in id order (null: from the first, whatever its id: 0 and below too). */
const readRows = async (db: Executor, after: number | null, limit: number) =>
  rowsOf<Row>(
    await db.execute(
      sql`select ${CHAIN_COLUMNS} from audit_events where ${after === null ? sql`true` : sql`id > ${after}`}
          order by audit_events.id limit ${limit}`,
    ),
  );

const toCheckpoint = (r: {
  tree_size: string | number;
  last_id: string | number;
  root_hash: string;
  frontier: string[] | string;
  at: string | Date;
  note: string;
}): StoredCheckpoint => ({
  treeSize: Number(r.tree_size),
  lastId: Number(r.last_id),
  rootHash: r.root_hash,
  frontier: typeof r.frontier === 'string' ? (JSON.parse(r.frontier) as string[]) : r.frontier,
  at: r.at instanceof Date ? r.at.toISOString() : new Date(r.at).toISOString(),
  note: r.note,
});

/**
 * The stored checkpoints after tree size `after`, up to `upTo`: a walk reads only those up to the
 * newest it saw when it began, since a server seals on while the walk reads (a checkpoint made since
 * covers rows the walk was never going to read, and is not a sign that rows were removed).
 */
export async function readCheckpoints(
  db: Executor,
  after: number,
  limit: number,
  upTo: number = Number.MAX_SAFE_INTEGER,
): Promise<StoredCheckpoint[]> {
  return rowsOf<Parameters<typeof toCheckpoint>[0]>(
    await db.execute(
      sql`select tree_size, last_id, root_hash, frontier, at, note from audit_checkpoints
          where tree_size > ${after} and tree_size <= ${upTo} order by tree_size limit ${limit}`,
    ),
  ).map(toCheckpoint);
}

export async function newestCheckpoint(db: Executor): Promise<StoredCheckpoint | null> {
  const [row] = rowsOf<Parameters<typeof toCheckpoint>[0]>(
    await db.execute(
      sql`select tree_size, last_id, root_hash, frontier, at, note from audit_checkpoints
          order by tree_size desc limit 1`,
    ),
  );
  return row ? toCheckpoint(row) : null;
}

/** Rows written after the newest checkpoint's last row: not sealed yet. */
export async function pendingRows(db: Executor, after: number | null): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(
      sql`select count(*) as n from audit_events where ${after === null ? sql`true` : sql`id > ${after}`}`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** The leaf hash of a row: SHA-256(0x00 || its canonical content). */
export const rowLeaf = (row: StoredChainRow) => leafHash(canonicalContent(row));

/** What is wrong with stored checkpoint `c`, reached at `row` with the tree of the rows through it (null: nothing). */
function checkpointProblem(
  c: StoredCheckpoint,
  row: Row,
  tree: MerkleFrontier,
  previousCheckpointId: number,
  verifier: VerifyOptions['verifier'],
): string | null {
  const root = tree.root().toString('hex');
  const range = `rows after ${previousCheckpointId} through ${c.lastId}`;
  if (c.lastId !== Number(row.id)) {
    return `checkpoint ${c.treeSize} (${c.at}) ends at row ${c.lastId}, but row ${row.id} is the trail's ${c.treeSize}th: rows were removed or inserted among the ${range}`;
  }
  if (root !== c.rootHash) {
    return `the first ${c.treeSize} rows hash to ${short(root)} but checkpoint ${c.treeSize} (${c.at}) records ${short(c.rootHash)}: one of the ${range} was changed, removed or inserted`;
  }
  if (JSON.stringify(tree.toJSON()) !== JSON.stringify(c.frontier)) {
    return `checkpoint ${c.treeSize} (${c.at}) records a frontier its rows do not give: the checkpoint was rewritten`;
  }
  if (verifier) {
    let opened: Checkpoint;
    try {
      opened = openCheckpoint(c.note, verifier);
    } catch (error) {
      return `checkpoint ${c.treeSize} (${c.at}): ${(error as Error).message}`;
    }
    if (opened.treeSize !== c.treeSize || opened.rootHash.toString('hex') !== c.rootHash) {
      return `checkpoint ${c.treeSize} (${c.at}): its signed note says size ${opened.treeSize}, root ${short(opened.rootHash.toString('hex'))}`;
    }
  }
  return null;
}

/** Walks the trail from `from` (the first row by default); the first failure ends the walk and is named. */
export async function verifyTrail(db: Executor, options: VerifyOptions = {}): Promise<TrailVerification> {
  const batchSize = options.batchSize ?? 2000;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const head = await readChainHead(db);
  const checkpoint = await newestCheckpoint(db);
  const from = options.from ?? TRAIL_START;
  let verified: TrailPosition = { ...from, tree: from.tree.clone() };
  let checked = 0;
  let checkpointsChecked = 0;
  const end = Math.max(head.id, checkpoint?.lastId ?? 0);
  const sealedSize = checkpoint?.treeSize ?? 0;
  const result = async (
    status: TrailVerification['status'],
    broken: TrailBreak | null = null,
  ): Promise<TrailVerification> => ({
    status,
    checked,
    verified,
    head,
    checkpoint,
    checkpointsChecked,
    pending: await pendingRows(db, checkpoint ? checkpoint.lastId : null),
    broken,
  });
  /** Where the last stored checkpoint held (a break between two reports the rows after it unverified). */
  let sealedGood: TrailPosition = { ...verified, tree: verified.tree.clone() };
  let upcoming: StoredCheckpoint[] = [];
  let previousCheckpointId = 0;
  const nextCheckpoint = async () => {
    if (upcoming.length === 0 && verified.rows < sealedSize) {
      upcoming = await readCheckpoints(db, verified.rows, 500, sealedSize);
    }
    return upcoming[0];
  };
  const headBreak = (): TrailBreak => ({
    id: head.id,
    at: null,
    reason: 'head',
    message:
      `the legacy chain head records row ${head.id} (${short(head.hash)}) but its rows end at row ` +
      `${verified.id} (${short(verified.chain)}): rows at the end were removed or rewritten`,
  });

  while (verified.id < end) {
    if (checked >= maxRows) return result('partial');
    const rows = await readRows(
      db,
      verified.rows === 0 ? null : verified.id,
      Math.min(batchSize, maxRows - checked),
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const id = Number(row.id);
      if (id > end) return finish();
      checked += 1;
      let chain = verified.chain;
      if (id <= head.id) {
        if (row.prev_hash !== verified.chain) {
          const before = verified.id === 0 ? 'the start of the chain' : `row ${verified.id}`;
          return result('broken', {
            id,
            at: row.at,
            reason: 'link',
            message:
              `row ${id} (${row.at}): prev_hash ${short(row.prev_hash)} is not the hash of ${before} ` +
              `(${short(verified.chain)}): rows before it were removed, added or rewritten`,
          });
        }
        chain = chainHash(verified.chain, row);
        if (chain !== row.hash) {
          return result('broken', {
            id,
            at: row.at,
            reason: 'content',
            message: `row ${id} (${row.at}): its content does not match its hash (stored ${short(row.hash)}, computed ${short(chain)}): the row was changed`,
          });
        }
      } else if (verified.id < head.id || (verified.id === head.id && verified.chain !== head.hash)) {
        return result('broken', headBreak());
      } else if (row.hash !== null || row.prev_hash !== null) {
        // Rows since 0027 carry no chain hash: a chained row past the head means the head was moved back.
        return result('broken', {
          id: head.id,
          at: null,
          reason: 'head',
          message: `row ${id} (${row.at}) is chained but the legacy chain head records row ${head.id}: the head was moved back`,
        });
      }
      // The next stored checkpoint past the rows before this one (it may end at this row).
      const c = await nextCheckpoint();
      const leaf = rowLeaf(row);
      const tree = verified.tree;
      tree.append(leaf);
      verified = {
        id,
        at: row.at,
        hash: id <= head.id ? chain : leaf.toString('hex'),
        rows: verified.rows + 1,
        chain,
        tree,
      };
      if (c && c.treeSize === verified.rows) {
        upcoming.shift();
        const wrong = checkpointProblem(c, row, verified.tree, previousCheckpointId, options.verifier);
        if (wrong) {
          verified = sealedGood;
          return result('broken', { id, at: row.at, reason: 'checkpoint', message: wrong });
        }
        sealedGood = { ...verified, tree: verified.tree.clone() };
        checkpointsChecked += 1;
        previousCheckpointId = c.lastId;
      }
    }
  }
  return finish();

  async function finish(): Promise<TrailVerification> {
    if (verified.id < head.id || (verified.id === head.id && verified.chain !== head.hash)) {
      return result('broken', headBreak());
    }
    const c = await nextCheckpoint();
    if (c && c.treeSize > verified.rows) {
      verified = sealedGood;
      return result('broken', {
        id: c.lastId,
        at: null,
        reason: 'checkpoint',
        message: `checkpoint ${c.treeSize} (${c.at}) seals ${c.treeSize} rows through row ${c.lastId}, but the trail has ${verified.rows} through row ${verified.id}: rows were removed`,
      });
    }
    return result('intact');
  }
}

export interface KeptMismatch {
  treeSize: number;
  message: string;
}

/**
 * Checks the trail against checkpoints kept outside the database (signed notes, already opened with
 * the verifier key): the first N rows in id order must hash to each one's root. Reads the rows once,
 * trusting nothing the database stores about the tree. Answers the first mismatch, or null.
 */
export async function verifyAgainstKept(
  db: Executor,
  kept: Checkpoint[],
  batchSize = 5000,
): Promise<{ mismatch: KeptMismatch | null; rows: number }> {
  const sizes = [...kept].sort((a, b) => a.treeSize - b.treeSize);
  const tree = MerkleFrontier.empty();
  let after = 0;
  let i = 0;
  const compare = (c: Checkpoint): KeptMismatch | null => {
    const root = tree.root();
    return root.equals(c.rootHash)
      ? null
      : {
          treeSize: c.treeSize,
          message: `the first ${c.treeSize} rows (through row ${after}) hash to ${short(root.toString('hex'))}, but the kept checkpoint of size ${c.treeSize} says ${short(c.rootHash.toString('hex'))}: rows among them were changed, removed or inserted`,
        };
  };
  while (i < sizes.length && sizes[i]!.treeSize === 0) {
    const wrong = compare(sizes[i++]!);
    if (wrong) return { mismatch: wrong, rows: 0 };
  }
  while (i < sizes.length) {
    const rows = await readRows(db, tree.size === 0 ? null : after, batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      tree.append(rowLeaf(row));
      after = Number(row.id);
      while (i < sizes.length && sizes[i]!.treeSize === tree.size) {
        const wrong = compare(sizes[i++]!);
        if (wrong) return { mismatch: wrong, rows: tree.size };
      }
      if (i >= sizes.length) break;
    }
  }
  if (i < sizes.length) {
    const c = sizes[i]!;
    return {
      mismatch: {
        treeSize: c.treeSize,
        message: `the kept checkpoint of size ${c.treeSize} covers ${c.treeSize} rows but the trail has ${tree.size}: rows were removed`,
      },
      rows: tree.size,
    };
  }
  return { mismatch: null, rows: tree.size };
}
