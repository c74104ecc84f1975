import type { Database } from '../../db/client.ts';
import { createInProcessQueue } from './in-process.ts';
import { createPgBossQueue } from './pg-boss.ts';
import type { JobQueue } from './queue.ts';

export type { Job, JobHandler, JobQueue, SendOptions, WorkOptions } from './queue.ts';

type Log = { error(o: object, m: string): void; warn(o: object, m: string): void };

/**
 * The queue for this database: pg-boss when there is a PostgreSQL URL to give it (shared by every
 * server process), else the in-process runner on the app's own database handle (the embedded PGlite).
 */
export function createJobQueue(options: {
  db: Database;
  postgresUrl?: string | undefined;
  log?: Log;
}): JobQueue {
  if (options.postgresUrl)
    return createPgBossQueue({ connectionString: options.postgresUrl, log: options.log });
  return createInProcessQueue(options.db, { log: options.log });
}
