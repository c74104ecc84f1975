/**
 * The case's entities and the watchlist's comparable facts read the same analysis the results page, the
 * PDF and the exports show: the same merged values, the same sources, the same corroboration.
 */
import { describe, expect, it } from 'vitest';
import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  comparable,
  entitiesOf,
  isCorroborated,
  lookupSnapshot,
  normalizeEntity,
  readSnapshot,
} from '../src/index.ts';
import { richEmail, richPhone } from './fixtures/answers.ts';

/** A lookup as the server stores it: the payloads by source key, their errors and statuses. */
const stored = (answer: Record<string, unknown>) => {
  const { errors, source_status, answered_at, ...payloads } = answer;
  return { payloads, errors: errors ?? {}, status: source_status ?? {} };
};

const TYPES: Record<string, 'name' | 'phone' | 'email' | 'username' | 'address'> = {
  Name: 'name',
  Phone: 'phone',
  'E-mail': 'email',
  Usernames: 'username',
  'Address/Location': 'address',
};

describe.each([
  ['tel', 'phone', () => richPhone(), (a: never) => analyzePhoneLookup(a)],
  ['email', 'email', () => richEmail(), (a: never) => analyzeEmailLookup(a)],
] as const)('the %s lookup', (kind, _shape, answer, analyze) => {
  const analysis = analyze(answer() as never);
  const result = stored(answer() as Record<string, unknown>);

  it("gives the case the analysis's values, with its sources and its corroboration", () => {
    const entities = entitiesOf(kind, result);
    let compared = 0;
    for (const attribute of analysis.attributes) {
      const type = TYPES[attribute.attribute];
      if (!type) continue;
      for (const value of attribute.values) {
        const normal = normalizeEntity(type, value.value);
        if (normal === null) continue;
        const entity = entities.find(
          (e) => e.type === type && e.value.toLowerCase() === normal.toLowerCase(),
        );
        expect(entity, `${attribute.attribute} ${value.value}`).toBeDefined();
        expect(entity?.sources.sort()).toEqual([...new Set(value.sources)].sort());
        expect(new Set(entity?.sources).size >= 2).toBe(isCorroborated(value));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(3);
    // Nothing the analysis does not show: every name, phone and e-mail entity is one of its values.
    const shown = new Set(
      analysis.attributes.flatMap((a) =>
        TYPES[a.attribute] ? a.values.map((v) => `${TYPES[a.attribute]}:${v.value.toLowerCase()}`) : [],
      ),
    );
    for (const entity of entities.filter((e) => ['name', 'phone', 'email'].includes(e.type)))
      expect(shown.has(`${entity.type}:${entity.value.toLowerCase()}`), entity.value).toBe(true);
  });

  it("gives the watch the analysis's values, found by the answer keys that gave them", () => {
    const snapshot = lookupSnapshot(kind, result);
    const names = analysis.attributes.find((a) => a.attribute === 'Name')?.values ?? [];
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const fact = snapshot.facts.find(
        (f) => f.type === 'name' && f.value.toLowerCase() === name.value.toLowerCase(),
      );
      expect(fact, name.value).toBeDefined();
      const keys = [...new Set((name.provenance ?? []).map((p) => p.key).filter(Boolean))].sort();
      expect(fact?.sources.sort()).toEqual(keys);
    }
    expect(snapshot.facts.filter((f) => f.type === 'name')).toHaveLength(names.length);
  });
});

describe('a watch snapshot read before facts came from the analysis', () => {
  it('is not compared with a new one, so the next run takes a baseline instead of reporting changes', () => {
    const now = lookupSnapshot('tel', stored(richPhone() as Record<string, unknown>));
    const old = readSnapshot({ facts: now.facts.slice(1), answered: now.answered });
    expect(old).not.toBeNull();
    expect(comparable(old!, now)).toBe(false);
    expect(comparable(readSnapshot(JSON.parse(JSON.stringify(now)))!, now)).toBe(true);
  });
});
