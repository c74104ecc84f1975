/**
 * The query as the user typed it, kept beside the normalized form a search matches and caches on
 * (`lookups.query_typed` next to `lookups.query`). It is shown in history, the audit trail and its
 * CSV export, so it is stored safe: no control characters (NUL included), no invisible direction
 * overrides, and never longer than QUERY_TYPED_MAX characters.
 */

/** The longest typed query kept (characters, not bytes); longer text is cut and ends with '…'. */
export const QUERY_TYPED_MAX = 300;

/** Line breaks and tabs: a space, so that words typed on two lines stay apart. */
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/**
 * C0 and C1 controls (NUL included), DEL, and the invisible characters that reorder or hide text
 * (zero-width spaces and joiners, bidirectional marks, overrides and isolates, the byte-order mark).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** A lone surrogate half: not text, and refused by some CSV readers. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The typed text made safe to store and show: controls removed (line breaks and tabs become a space),
 * the ends trimmed, and at most QUERY_TYPED_MAX characters (code points, never half of one). What the
 * user typed is otherwise kept as is: case, inner spacing and punctuation. Anything that is not text,
 * or text with nothing left, gives `fallback` (the normalized query), cleaned the same way.
 */
export function cleanTypedQuery(raw: unknown, fallback: string): string {
  const cleaned = typeof raw === 'string' ? clean(raw) : '';
  return cleaned === '' ? clean(fallback) : cleaned;
}

function clean(text: string): string {
  const stripped = text.replace(SPACING, ' ').replace(INVISIBLE, '').replace(LONE_SURROGATE, '').trim();
  const chars = Array.from(stripped);
  if (chars.length <= QUERY_TYPED_MAX) return stripped;
  return `${chars
    .slice(0, QUERY_TYPED_MAX - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * Whether the typed form says something the normalized one does not, so that screens show both: not
 * when they differ only in case and spacing ('A@B.co' and 'a@b.co' read the same).
 */
export function typedDiffers(
  typed: string | null | undefined,
  normalized: string | null | undefined,
): boolean {
  if (!typed || !normalized) return false;
  const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  return fold(typed) !== fold(normalized);
}
