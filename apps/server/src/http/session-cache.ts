import type { Database } from '../db/client.ts';
import type { UserRow } from '../db/schema.ts';

/**
 * How long a checked token is trusted without asking the database again. Every server process that
 * shares the database sees a revocation, an expiry or a disabled account within this time, whatever
 * wrote it (another process, the CLI, SQL by hand); writes through this process forget their
 * sessions at once (forgetSessions). Under a second, as the issue (18) requires, with room for timer
 * granularity.
 */
export const SESSION_CACHE_MS = 900;

/** What the token check found: the active user behind a live, unrevoked token. */
export interface Session {
  user: UserRow;
  tokenId: string;
  lastUsedAt: Date | null;
  expiresAt: Date;
  hasSecondFactor: boolean;
}

interface Entry {
  session: Session;
  /** When the query that found it was sent (performance.now()): a revocation after it is seen. */
  checkedAt: number;
  /** When it was last read from the cache (performance.now()), if it has been since it was stored. */
  readAt: number | undefined;
}

/**
 * How often the sessions read from the cache are checked again, all in one statement
 * (`SessionCache.refresh`). Under SESSION_CACHE_MS, so a session in use is refreshed before it
 * expires: a token used many times a second costs one token query per process every REFRESH_MS,
 * shared with every other token in use, rather than one query per token every SESSION_CACHE_MS.
 */
export const SESSION_REFRESH_MS = 400;

/**
 * How long after its last use a session is still refreshed. A refresh checks the sessions read in
 * this time, not only since the last refresh: a token used about twice a second on a process (one
 * client's lookups spread over four processes) would otherwise go a refresh unread one time in two,
 * expire, and cost its next request a token query of its own (0.16 a lookup measured with four
 * processes, 0.007 with one). A session unused this long is left to expire.
 */
export const SESSION_KEEP_WARM_MS = 3000;

/** Checks many token hashes at once: the live sessions among them (absent: revoked, expired, disabled). */
export type SessionRecheck = (hashes: string[]) => Promise<Map<string, Session>>;

/** Token hash → session, briefly. Bounded: a flood of distinct tokens empties it rather than growing it. */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by forget(): a token check in flight when sessions were forgotten does not store its answer. */
  private generation = 0;

  constructor(
    readonly ttlMs = SESSION_CACHE_MS,
    private readonly maxEntries = 10_000,
    private readonly keepWarmMs = SESSION_KEEP_WARM_MS,
  ) {}

  get(hash: string): Session | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (
      performance.now() - entry.checkedAt >= this.ttlMs ||
      entry.session.expiresAt.getTime() <= Date.now()
    ) {
      this.entries.delete(hash);
      return undefined;
    }
    entry.readAt = performance.now();
    return entry.session;
  }

  /**
   * Checks again, in one call of `recheck`, every session read from the cache in the last
   * `keepWarmMs`: each found gets a new check time, each missing (revoked, expired, disabled) is
   * dropped. A session nobody read in that time is left to expire. Sessions forgotten meanwhile
   * (forget()) are not brought back. On a failure they are dropped: each is checked again by its next
   * request.
   */
  async refresh(recheck: SessionRecheck): Promise<void> {
    const warmSince = performance.now() - this.keepWarmMs;
    const hashes = [...this.entries]
      .filter(([, entry]) => entry.readAt !== undefined && entry.readAt >= warmSince)
      .map(([hash]) => hash);
    if (hashes.length === 0) return;
    const ticket = this.ticket();
    let found: Map<string, Session>;
    try {
      found = await recheck(hashes);
    } catch (error) {
      for (const hash of hashes) this.entries.delete(hash);
      throw error;
    }
    if (ticket.generation !== this.generation) return;
    for (const hash of hashes) {
      const session = found.get(hash);
      const readAt = this.entries.get(hash)?.readAt;
      if (session) this.entries.set(hash, { session, checkedAt: ticket.checkedAt, readAt });
      else this.entries.delete(hash);
    }
  }

  /**
   * Refreshes the sessions in use every `everyMs` (one refresh at a time) until the returned
   * function is called. The timer does not keep the process alive.
   */
  keepFresh(recheck: SessionRecheck, everyMs = SESSION_REFRESH_MS): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running || this.ttlMs <= 0) return;
      running = true;
      void this.refresh(recheck)
        .catch(() => {})
        .finally(() => {
          running = false;
        });
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** A ticket for a check about to be sent: the time it was sent and the generation it belongs to. */
  ticket(): { checkedAt: number; generation: number } {
    return { checkedAt: performance.now(), generation: this.generation };
  }

  set(hash: string, session: Session, ticket: { checkedAt: number; generation: number }) {
    if (this.ttlMs <= 0 || ticket.generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(hash, { session, checkedAt: ticket.checkedAt, readAt: undefined });
  }

  /** Every session is checked against the database again on its next request. */
  forget() {
    this.generation++;
    this.entries.clear();
  }
}

const caches = new WeakMap<object, SessionCache>();

/** The session cache of the server on this database handle (one per app). */
export function sessionCacheOf(db: Database): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SessionCache();
    caches.set(db, cache);
  }
  return cache;
}

/**
 * After a write that ends or changes sessions (sign-out, sign-out everywhere, a password change or
 * reset, an admin's change to an account): this process checks every token against the database
 * again at once, rather than after SESSION_CACHE_MS. Call it after the write has committed.
 */
export function forgetSessions(db: Database) {
  caches.get(db)?.forget();
}
