import type { SQL } from 'drizzle-orm';
import type { Executor } from './client.ts';

interface Internals {
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs `query` as a named prepared statement: on node-postgres each pooled connection parses it once
 * and may keep its plan, instead of parsing and planning it on every call (`db.execute` sends it
 * unnamed). The statement's text must be the same on every call, so its variable parts are array
 * parameters (`unnest($1::uuid[], …)`) rather than a VALUES list that grows with the batch.
 * PGlite runs it as any other query. Answers what `db.execute` answers (see rowsOf).
 */
export function executeNamed(db: Executor, name: string, query: SQL): Promise<unknown> {
  const { session, dialect } = db as unknown as Internals;
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}
