// Who may see or act on what is said once, in src/access/policy.ts. A module or route that writes its
// own ownership predicate (a `userId`/`ownerId` compared with the caller, in drizzle or in raw SQL), or
// decides admin or live access itself, fails here with its place: ask the policy instead, so that units
// and supervisors can widen access in that one module.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

/** The shapes an ownership or access decision takes when it is written by hand. */
const PREDICATES: [string, RegExp][] = [
  ['drizzle ownership predicate', /\beq\(\s*[\w.]+\.(userId|ownerId)\s*,/],
  ['SQL ownership predicate', /\$\{[\w.]+\.(userId|ownerId)\}\s*=\s*\$\{|\b(user_id|owner_id)\s*=\s*\$\{/],
  ['ownership comparison', /\.(userId|ownerId)\s*[!=]==|[!=]==\s*[\w.?]+\.(userId|ownerId)\b/],
  ['scope check', /\.scopes\.includes\(/],
  ['admin check', /\b(user|caller|actor|viewer|acting)\??\.role\s*[!=]==/],
  ['live check', /\.appMode\s*[!=]==\s*'live'/],
];

/** Each hand-written access decision in `text`, as 'line: kind'. */
function handWritten(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      PREDICATES.filter(([, pattern]) => pattern.test(line)).map(([kind]) => `${i + 1}: ${kind}`),
    );
}

describe('one access policy', () => {
  it('finds each shape of hand-written access decision (the detector can fail)', () => {
    // The planted lines are source text, `${…}` included.
    const planted = [
      '.where(and(eq(watches.id, id), eq(watches.userId, user.id)))',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text
      'sql`${bulkJobs.userId} = ${user.id}`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text
      'where c.owner_id = ${viewer.id}',
      'if (row.ownerId === user.id) return',
      "const insider = caller.role === 'admin';",
      "if (user.appMode !== 'live') throw",
      'if (!found.scopes.includes(scope)) throw',
    ].join('\n');
    expect(handWritten(planted)).toHaveLength(7);
    expect(handWritten('.where(and(eq(watches.id, id), changes(user, watches)))')).toEqual([]);
  });

  it('no module or route outside src/access writes its own', () => {
    const found = [...files(join(src, 'modules')), ...files(join(src, 'http'))].flatMap((path) =>
      handWritten(readFileSync(path, 'utf8')).map((hit) => `${path.slice(src.length + 1)}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
