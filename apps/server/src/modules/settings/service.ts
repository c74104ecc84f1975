import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';

/** Deployment-wide switches an admin can change at run time; the environment gives their defaults. */
export interface SettingsDefaults {
  registrationEnabled: boolean;
}

export async function readSetting<T>(db: Executor, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

export async function writeSetting(
  db: Executor,
  key: string,
  value: unknown,
  actorId?: string,
): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedBy: actorId ?? null })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value, updatedAt: new Date(), updatedBy: actorId ?? null },
    });
}

export async function isRegistrationEnabled(db: Executor, defaults: SettingsDefaults): Promise<boolean> {
  const stored = await readSetting<boolean>(db, 'registration_enabled');
  return typeof stored === 'boolean' ? stored : defaults.registrationEnabled;
}

/**
 * The key that signs OTP hashes. APP_KEY wins; otherwise one is made on first start and kept in the
 * database, so the embedded default needs no set-up and survives restarts.
 */
export async function resolveAppKey(db: Executor, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const stored = await readSetting<string>(db, 'app_key');
  if (stored) return stored;
  const { randomBytes } = await import('node:crypto');
  const key = randomBytes(32).toString('base64url');
  await db.insert(settings).values({ key: 'app_key', value: key }).onConflictDoNothing();
  return (await readSetting<string>(db, 'app_key')) ?? key;
}
