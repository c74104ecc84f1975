import type { User } from '@footprint/domain';
import type { UserRow } from '../../db/schema.ts';

/** What leaves the server about a user: never the hash, never internal status fields. */
export const presentUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  credits: row.credits,
  app_mode: row.appMode,
  role: row.role,
  created_at: row.createdAt.toISOString(),
});
