import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type UserRow, users } from '../../db/schema.ts';

export const findUserByEmail = async (db: Executor, email: string): Promise<UserRow | undefined> => {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
};

export const findUserById = async (db: Executor, id: string): Promise<UserRow | undefined> => {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
};
