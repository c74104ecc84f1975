import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { Database } from '../../db/client.ts';
import type { LookupCharge } from '../credits/service.ts';
import { type ChargeResult, createChargeBatcher } from './charge-batcher.ts';
import { createSettleWriter, type WriteResult, type WrittenSearch } from './settle.ts';

/** Where a search's charge and its answer are written: the group commits of this process or of the host's. */
export interface SearchWriters {
  charge(charge: LookupCharge): Promise<ChargeResult>;
  write(row: WrittenSearch): Promise<WriteResult>;
  /** Stops serving the host (or leaves it); later writes go through this process's own group commits. */
  close(): Promise<void>;
}

/** This process's own group commits: the charge batcher and the settle writer. */
export function localWriters(db: Database): SearchWriters {
  const charge = createChargeBatcher(db);
  const write = createSettleWriter(db);
  return { charge, write, close: async () => {} };
}

/** A request or frame longer than this is refused (a settle with its stored answer is a few KB). */
const MAX_FRAME = 16 * 1024 * 1024;
/** How long a process waits after losing the host's writer before standing for it again. */
const RETRY_MS = 250;

type Frame =
  | { n: number; op: 'charge'; v: LookupCharge }
  | { n: number; op: 'write'; v: WrittenSearch }
  | { n: number; r: unknown }
  | { n: number; e: { message: string; code?: string } };

/** The name of the host's writer for one database: an abstract Unix socket (Linux), unseen on disk. */
const socketPath = (databaseUrl: string) =>
  `\0footprint-writer-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 32)}`;

/** Proof of the shared key over a nonce, per side, so neither end can be a stranger on the host. */
const proof = (key: string, side: 'leader' | 'follower', nonce: string) =>
  createHmac('sha256', key).update(`footprint-writer:${side}:${nonce}`).digest('hex');

const proves = (key: string, side: 'leader' | 'follower', nonce: string, given: unknown) => {
  if (typeof given !== 'string') return false;
  const want = Buffer.from(proof(key, side, nonce));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
};

/** Reads newline-delimited JSON frames from a socket; a frame too long or not JSON ends it. */
function onFrames(socket: net.Socket, handle: (frame: Record<string, unknown>) => void) {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_FRAME) {
      socket.destroy();
      return;
    }
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        socket.destroy();
        return;
      }
      if (typeof frame !== 'object' || frame === null) {
        socket.destroy();
        return;
      }
      handle(frame as Record<string, unknown>);
    }
  });
}

const send = (socket: net.Socket, frame: unknown) => socket.write(`${JSON.stringify(frame)}\n`);

/** Dates cross the socket as ISO strings. */
const reviveCharge = (v: LookupCharge): LookupCharge => ({ ...v, at: new Date(v.at) });
const reviveRow = (v: WrittenSearch): WrittenSearch => ({ ...v, at: new Date(v.at) }) as WrittenSearch;

/** Serves one process that joined: proves itself, checks the peer's proof, then writes its frames. */
function serveJoined(socket: net.Socket, key: string, local: SearchWriters, peers: Set<net.Socket>) {
  socket.unref();
  peers.add(socket);
  socket.on('close', () => peers.delete(socket));
  socket.on('error', () => {});
  const nonce = randomBytes(16).toString('hex');
  let trusted = false;
  send(socket, { nonce });
  onFrames(socket, (frame) => {
    if (!trusted) {
      if (!proves(key, 'follower', nonce, frame.proof) || typeof frame.nonce !== 'string') {
        socket.destroy();
        return;
      }
      trusted = true;
      send(socket, { proof: proof(key, 'leader', frame.nonce) });
      return;
    }
    const { n, op, v } = frame as { n: number; op: string; v: unknown };
    const done =
      op === 'charge'
        ? local.charge(reviveCharge(v as LookupCharge))
        : op === 'write'
          ? local.write(reviveRow(v as WrittenSearch))
          : Promise.reject(new Error(`unknown operation ${String(op)}`));
    done.then(
      (r) => send(socket, { n, r }),
      (error: { message?: string; code?: string; cause?: { code?: string } }) =>
        send(socket, {
          n,
          e: { message: String(error?.message ?? error), code: error?.code ?? error?.cause?.code },
        }),
    );
  });
}

type Waiting = Map<
  number,
  { resolve: (value: unknown) => void; reject: (error: unknown) => void; retry?: () => Promise<unknown> }
>;

/** A reply of the writer, to the write waiting for it. */
function answer(waiting: Waiting, reply: Frame) {
  const entry = waiting.get(reply.n);
  if (!entry) return;
  waiting.delete(reply.n);
  if ('e' in reply) entry.reject(Object.assign(new Error(reply.e.message), { code: reply.e.code }));
  else entry.resolve((reply as { r: unknown }).r);
}

/** The writer went: an answer in flight is written here instead, a charge fails as a lost connection. */
function orphan(waiting: Waiting) {
  for (const [n, entry] of waiting) {
    waiting.delete(n);
    if (entry.retry) entry.retry().then(entry.resolve, entry.reject);
    else
      entry.reject(
        Object.assign(new Error('lost the host writer with the charge in flight'), { code: 'ECONNRESET' }),
      );
  }
}

/**
 * One writer per host for the server processes on one database: the first process to take the host's
 * socket writes the charges and answers of every process that joins it, through its own group
 * commits, so that N processes on a host make batches as large as one process's, not N times as many
 * small ones (docs/scaling.md). Each process is otherwise as it was: it serves its own requests, and
 * writes through its own group commits whenever it has no writer to join (before the election, after
 * losing the writer, or when the socket is held by anything that does not prove the key).
 *
 * Both ends prove the deployment's key (APP_KEY) over the other's nonce before a charge crosses, so a
 * stranger on the host can neither write through the writer nor pose as one. If the writer goes away
 * with charges or free repeats in flight, they fail as a lost database connection does (503): whether
 * each was written is unknown, and the recovery sweep refunds a charge whose search never completed.
 * Settles in flight are written again by the process itself: a settle completes only a pending row, so
 * writing one twice changes nothing.
 */
export function hostWriters(
  db: Database,
  options: { databaseUrl: string; key: string; log?: (message: string) => void },
): SearchWriters & { role(): 'writer' | 'joined' | 'alone' } {
  const local = localWriters(db);
  const path = socketPath(options.databaseUrl);
  const log = options.log ?? (() => {});
  let closed = false;
  let server: net.Server | undefined;
  const peers = new Set<net.Socket>();
  /** The host's writer this process has joined, once both sides have proved the key. */
  let leader: net.Socket | undefined;
  let next = 0;
  const waiting: Waiting = new Map();
  let retry: NodeJS.Timeout | undefined;
  /** Joins in a row that ended before both sides proved the key: each waits twice as long, up to 30 s. */
  let refused = 0;

  const later = () => {
    if (closed || retry) return;
    const wait = Math.min(30_000, RETRY_MS * 2 ** refused);
    retry = setTimeout(
      () => {
        retry = undefined;
        stand();
      },
      wait + Math.random() * RETRY_MS,
    );
    retry.unref();
  };

  /** Joins the host's writer: checks its proof, then sends this process's writes to it. */
  const join = () => {
    const socket = net.connect({ path });
    socket.unref();
    const nonce = randomBytes(16).toString('hex');
    let proved = false;
    socket.on('error', () => {});
    socket.on('close', () => {
      if (leader === socket) leader = undefined;
      if (!proved) {
        refused++;
        if (refused === 1)
          log('host writer: the process holding the socket did not prove the key; writing alone');
      }
      orphan(waiting);
      later();
    });
    onFrames(socket, (frame) => {
      if (!proved) {
        if ('nonce' in frame && typeof frame.nonce === 'string') {
          send(socket, { proof: proof(options.key, 'follower', frame.nonce), nonce });
          return;
        }
        if (!proves(options.key, 'leader', nonce, frame.proof)) {
          socket.destroy();
          return;
        }
        proved = true;
        refused = 0;
        if (closed) socket.destroy();
        else leader = socket;
        return;
      }
      answer(waiting, frame as Frame);
    });
  };

  /** Takes the host's socket, or joins whoever holds it. */
  const stand = () => {
    if (closed) return;
    const candidate = net.createServer((socket) => serveJoined(socket, options.key, local, peers));
    candidate.on('error', (error: NodeJS.ErrnoException) => {
      if (candidate.listening) log(`host writer: ${error.message}`);
      else if (error.code === 'EADDRINUSE') join();
      else {
        log(`host writer: ${error.message}; writing alone`);
        later();
      }
    });
    candidate.listen({ path }, () => {
      candidate.unref();
      if (closed) candidate.close();
      else server = candidate;
    });
  };
  stand();

  const through = <T>(
    op: 'charge' | 'write',
    v: unknown,
    alone: () => Promise<T>,
    again?: () => Promise<T>,
  ) => {
    const socket = leader;
    if (!socket || socket.destroyed) return alone();
    const n = next++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(n, { resolve: resolve as (value: unknown) => void, reject, retry: again });
      send(socket, { n, op, v });
    });
  };

  return {
    /** Whether this process is the host's writer, has joined it, or writes alone for now. */
    role: () => (server ? 'writer' : leader && !leader.destroyed ? 'joined' : 'alone'),
    charge: (charge) => through('charge', charge, () => local.charge(charge)),
    // A settle is written again here if the writer goes with it in flight (it completes only a pending
    // row); a free repeat inserts a row of its id, so it fails as a charge does.
    write: (row) =>
      through(
        'write',
        row,
        () => local.write(row),
        row.mode === 'settle' ? () => local.write(row) : undefined,
      ),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      leader?.destroy();
      for (const peer of peers) peer.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}
