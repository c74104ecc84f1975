/** Rows of a raw `execute`, whichever driver ran it (node-postgres wraps them, PGlite too, differently). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
