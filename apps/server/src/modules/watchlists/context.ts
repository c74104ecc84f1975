/**
 * What every watchlist command shares: the database, the clock, the services a run searches through,
 * the mailer, and the link its e-mails carry.
 */
import type { Database } from '../../db/client.ts';
import type { LeakService } from '../leaks/service.ts';
import type { LookupService } from '../lookup/service.ts';
import type { Mailer } from '../mail/mailer.ts';

export interface WatchlistsDeps {
  db: Database;
  lookups: LookupService;
  leaks: LeakService;
  mailer: Mailer;
  /** Public address of the app, for the e-mails' link to /watchlist. */
  appUrl: string;
  now?: () => Date;
  /**
   * Whether searches of `kind` wait for a supervisor's approval (modules/approvals, the setting
   * approval_kinds): a watch of such a kind is not made, resumed or run, since its runs would not wait.
   */
  needsApproval?: (kind: string) => Promise<boolean>;
  /** Where a run that failed for another reason than credits or sources is reported. */
  log?: { error: (details: object, message: string) => void };
}

export function createWatchContext(deps: WatchlistsDeps) {
  return {
    deps,
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    watchlistUrl: `${deps.appUrl.replace(/\/$/, '')}/watchlist`,
  };
}

export type WatchContext = ReturnType<typeof createWatchContext>;
