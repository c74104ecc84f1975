import type { Database } from './db/client.ts';
import { users } from './db/schema.ts';
import { applyCreditChange } from './modules/credits/service.ts';
import { findUserByEmail } from './modules/users/repository.ts';
import { hashPassword } from './security/passwords.ts';

export const demoAccounts = [
  {
    email: 'demo-live@footprint.test',
    name: 'Demo Live Investigator',
    appMode: 'live',
    role: 'user',
    credits: 500,
  },
  {
    email: 'demo-trial@footprint.test',
    name: 'Demo Trial User',
    appMode: 'trial',
    role: 'user',
    credits: 20,
  },
  {
    email: 'demo-admin@footprint.test',
    name: 'Demo Administrator',
    appMode: 'live',
    role: 'admin',
    credits: 500,
  },
] as const;

/** Creates the demo accounts that do not exist yet; existing ones are left exactly as they are. */
export async function seedDemoAccounts(db: Database, password: string): Promise<string[]> {
  const created: string[] = [];
  for (const account of demoAccounts) {
    if (await findUserByEmail(db, account.email)) continue;
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          name: account.name,
          passwordHash,
          appMode: account.appMode,
          role: account.role,
          // Made by the operator, not self-registered: never waits for approval.
          status: 'active',
          emailVerifiedAt: new Date(),
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!user) return;
      await applyCreditChange(tx, {
        userId: user.id,
        delta: account.credits,
        kind: 'grant',
        reason: 'Demo account opening balance',
      });
      created.push(account.email);
    });
  }
  return created;
}
