import type { BulkType } from '@footprint/domain';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { LookupService } from '../lookup/service.ts';
import type { Searches } from '../searches/service.ts';
import type { ListEntry } from './parse.ts';

/** A list as the routes read it: from a JSON body or an uploaded file. */
export interface BulkInput {
  type: BulkType;
  entries: ListEntry[];
  /** The file's name, or null for a pasted (JSON) list. */
  fileName: string | null;
  caseReference: unknown;
}

export interface BulkDeps {
  db: Database;
  searches: Searches;
  queue: JobQueue;
  /** The worker's stale heartbeat (lease.ts `sendBulkJob`). */
  staleSeconds: number;
  /** What one row costs: the price of a lookup of the list's type. */
  costs: Readonly<Record<BulkType, number>>;
  /** Holds a job above approval_bulk_rows rows for a supervisor; absent: no job waits. */
  approvals?: BulkApprovalGate;
}

export interface BulkWorkerDeps {
  db: Database;
  lookups: LookupService;
  searches: Searches;
  queue: JobQueue;
  /** Rows of one job whose lookups run at once. */
  rowConcurrency: number;
  /** A running job's heartbeat older than this was left by a stopped process. */
  staleSeconds: number;
  log?: {
    error(o: object, m: string): void;
    warn(o: object, m: string): void;
    info(o: object, m: string): void;
  };
}

/** A job as its worker claimed it: what its rows' searches need. */
export interface Claimed {
  id: string;
  user_id: string;
  type: BulkType;
  case_reference: string | null;
  ip: string | null;
  device_id: string | null;
  /** Seconds since the previous worker's last heartbeat when this one took the job over from it. */
  silent_seconds?: number | null;
}

/** A row taken for a run, with the lookup id its search is written under. */
export interface TakenRow {
  id: string;
  line: number;
  input: string;
  query: string;
  lookup_id: string;
}

/** What stops a run's lanes before their next row: a pause or cancel, a 402, a failure. */
export interface RunState {
  halted: boolean;
  outOfCredits: boolean;
  error: unknown;
}

/** A bulk job held for a supervisor's approval, as the approvals module stores its request. */
export interface BulkHold {
  user: UserRow;
  client: ClientContext;
  type: BulkType;
  jobId: string;
  /** The job's name (the file's, or "Pasted list"). */
  name: string;
  rows: number;
  /** The most the job can cost (rows × price). */
  cost: number;
  caseReference: string | null;
  legalBasisLine: string | null;
}

/**
 * Bulk jobs of more rows than the admin's approval_bulk_rows wait for a supervisor (modules/approvals
 * implements this; app.ts hands it in, so this module does not import it).
 */
export interface BulkApprovalGate {
  /** Whether a job of `rows` rows waits for approval. */
  holds(rows: number): Promise<boolean>;
  /** Stores the request for a held job in `tx`, the job's own transaction; answers its id. */
  request(tx: Executor, job: BulkHold): Promise<string>;
  /** After the job's commit: tells the requester's supervisors. */
  announce(requestId: string, user: UserRow): Promise<void>;
}
