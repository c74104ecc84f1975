import type { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** The rows of a raw statement, whichever driver ran it. */
export const execute = async <T>(db: Executor, query: ReturnType<typeof sql>) =>
  rowsOf<T>(await db.execute(query));
