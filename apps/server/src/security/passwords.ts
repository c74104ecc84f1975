import argon2 from 'argon2';

/**
 * Argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): strong enough for stored
 * passwords and cheap enough that login stays well under 100 ms on the product's 2-core machines.
 */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, options);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the account does not exist, so that login timing does
 * not reveal which e-mail addresses have accounts.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('footprint-timing-equaliser');
  await verifyPassword(await dummyHash, password);
  return false;
}
