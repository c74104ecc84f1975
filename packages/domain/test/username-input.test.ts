import { describe, expect, it } from 'vitest';
import { normalizeUsername, usernameQuery } from '../src/index.ts';

describe('normalizeUsername', () => {
  it("reads a name as GET /api/username does: trimmed, a leading '@' dropped, NFC, case kept", () => {
    expect(normalizeUsername('  @Rohan.D90 ')).toBe('Rohan.D90');
    expect(normalizeUsername('nobody.demo')).toBe('nobody.demo');
    // 'é' typed as e + combining accent is the composed letter.
    expect(normalizeUsername('rene\u0301')).toBe('ren\u00e9');
    for (const bad of ['', '@', 'two words', 'a/b', '@@name', 'x'.repeat(65), 'ab\u0000c'])
      expect(normalizeUsername(bad), JSON.stringify(bad)).toBeNull();
  });

  it('agrees with the lookup request schema on every value', () => {
    const values = ['rohand90', '@rohand90', ' @x_y-z ', 'a b', '', 'x'.repeat(64), 'x'.repeat(65), '@', '.'];
    for (const value of values) {
      const parsed = usernameQuery.safeParse({ username: value });
      expect(parsed.success ? parsed.data.username : null, JSON.stringify(value)).toBe(
        normalizeUsername(value),
      );
    }
  });
});
