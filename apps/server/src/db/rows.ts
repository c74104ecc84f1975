/** Rows of a raw `execute`, whichever driver ran it (node-postgres wraps them, PGlite too, differently). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Whether a write failed on a unique index (SQLSTATE 23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
