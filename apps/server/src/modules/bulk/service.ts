import type { ListScope } from '../../access/policy.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { refuseHeldJob, releaseHeldJob } from './approval.ts';
import { createBulkJob, previewBulk } from './create.ts';
import { getJob, jobResults, jobRows, jobSnapshot, listJobs } from './read.ts';
import { transitionJob } from './transition.ts';
import type { BulkDeps, BulkInput } from './types.ts';

export { BULK_ROWS_PAGE } from './read.ts';
export { isFinal } from './transition.ts';
export type { BulkDeps, BulkInput } from './types.ts';

/**
 * Bulk lookups: a list checked and priced (preview), stored as a job of rows and queued (create), and
 * its state, rows and results for its owner only: another user's job is a 404, as if it did not exist.
 * The rows run in the worker (worker.ts), each through the paid search like a single lookup. Each
 * action is a function of its own: create.ts (preview, create), read.ts (the owner's reads),
 * transition.ts (pause, resume, cancel).
 */
export function createBulkService(deps: BulkDeps) {
  const { db } = deps;
  return {
    preview: (user: UserRow, input: BulkInput) => previewBulk(deps, user, input),
    create: (user: UserRow, client: ClientContext, input: BulkInput) =>
      createBulkJob(deps, user, client, input),
    list: (user: UserRow, scope?: ListScope) => listJobs(db, user, scope),
    get: (user: UserRow, id: string) => getJob(db, user, id),
    snapshot: (user: UserRow, id: string) => jobSnapshot(db, user, id),
    rows: (user: UserRow, id: string, page: number) => jobRows(db, user, id, page),
    results: (user: UserRow, id: string) => jobResults(db, user, id),
    pause: (user: UserRow, client: ClientContext, id: string) =>
      transitionJob(deps, user, client, id, 'pause'),
    resume: (user: UserRow, client: ClientContext, id: string) =>
      transitionJob(deps, user, client, id, 'resume'),
    cancel: (user: UserRow, client: ClientContext, id: string) =>
      transitionJob(deps, user, client, id, 'cancel'),
    /** A held job approved (approvals' 'bulk' replay): queued. */
    release: (input: unknown, auditDetails: Record<string, unknown>) =>
      releaseHeldJob(deps, input, auditDetails),
    /** A held job's request rejected or expired: not_approved. */
    refuse: (input: unknown, reason: string) => refuseHeldJob(deps, input, reason),
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
