/**
 * The sandbox's one source of randomness: sfc32 seeded from the cyrb128 hash of a label, so the same
 * label (e.g. `wpData:919876543210`, or `demo:4711` for person 4711 of the leak records of seed 'demo')
 * always yields the same sequence, on every machine and after every restart. No generated data depends
 * on Math.random (only the providers' optional failure injection does).
 */

/**
 * The fixed "now" of the sandbox. Ages, report dates and timestamps are computed from it, never from
 * the clock, so an answer never changes with the date it is asked on.
 */
export const SANDBOX_NOW = new Date('2026-10-01T06:30:00Z');

const DAY_MS = 86_400_000;

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  /** `count` distinct items in random order (all of them when count ≥ length). */
  sample<T>(items: readonly T[], count: number): T[];
  shuffle<T>(items: readonly T[]): T[];
  /** A string of `count` decimal digits; the first is drawn from `first` when given (e.g. '6789'). */
  digits(count: number, first?: string): string;
  /** `count` letters from A–Z (or from `alphabet`). */
  letters(count: number, alphabet?: string): string;
  /** A date uniformly between `from` and `to` (inclusive of both days). */
  date(from: Date, to: Date): Date;
  /** An independent generator derived from this one's seed and `label`. */
  fork(label: string): Rng;
}

/** sfc32 (Small Fast Counting), a 128-bit-state PRNG with good statistical quality. */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/**
 * The same generator with the counter added to the output before it steps, as in the reference sfc32.
 * The leak generator draws from this stream: the leak records of a seed, and so the record hashes that
 * make a second load of the same seed add nothing, are fixed by it, as the providers' answers are fixed
 * by the stream above.
 */
function sfc32CounterFirst(a: number, b: number, c: number, d: number): () => number {
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/**
 * Which sfc32 stream a seed drives: 'lookup' for the sandbox providers' answers, 'leaks' for the
 * sandbox leak records. Each is pinned by the data tests and demos rely on.
 */
export type RngStream = 'lookup' | 'leaks';

/**
 * cyrb128 (bryc, public domain): four 32-bit words from a string, well mixed and stable everywhere.
 * The sandbox needs reproducible spread, not secrecy; a cryptographic hash here cost ~6 % of the
 * server's CPU per lookup (one seed per source per query).
 */
export function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A stable 32-bit hash of `text`, for bucketing. */
export function hash32(text: string): number {
  return cyrb128(text)[0];
}

/** A stable fraction in [0, 1) for `text`: used for "is this one of the ~N% that ...?" decisions. */
export function hashFraction(text: string): number {
  return hash32(text) / 4_294_967_296;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function createRng(seed: string, stream: RngStream = 'lookup'): Rng {
  const raw = (stream === 'leaks' ? sfc32CounterFirst : sfc32)(...cyrb128(seed));
  // Warm up: the first outputs of sfc32 correlate with the seed words.
  for (let i = 0; i < 12; i++) raw();

  const rng: Rng = {
    next: raw,
    int(min, max) {
      if (max < min) throw new RangeError(`int(${min}, ${max}): max < min`);
      return min + Math.floor(raw() * (max - min + 1));
    },
    float(min, max) {
      return min + raw() * (max - min);
    },
    chance(probability) {
      return raw() < probability;
    },
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick() from an empty list');
      return items[Math.floor(raw() * items.length)] as T;
    },
    weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      if (items.length === 0 || total <= 0) throw new RangeError('weighted() needs positive weights');
      let roll = raw() * total;
      for (const [value, weight] of items) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return (items[items.length - 1] as readonly [T, number])[0];
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(raw() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
    sample<T>(items: readonly T[], count: number): T[] {
      return rng.shuffle(items).slice(0, Math.max(0, count));
    },
    digits(count, first) {
      let out = '';
      for (let i = 0; i < count; i++) {
        out += i === 0 && first ? rng.pick([...first]) : String(Math.floor(raw() * 10));
      }
      return out;
    },
    letters(count, alphabet = UPPER) {
      let out = '';
      for (let i = 0; i < count; i++) out += alphabet[Math.floor(raw() * alphabet.length)];
      return out;
    },
    date(from, to) {
      const start = Math.floor(from.getTime() / DAY_MS);
      const end = Math.floor(to.getTime() / DAY_MS);
      return new Date(rng.int(start, Math.max(start, end)) * DAY_MS + rng.int(0, DAY_MS / 1000 - 1) * 1000);
    },
    fork(label) {
      return createRng(`${seed}/${label}`, stream);
    },
  };
  return rng;
}

// ---------- date formatting (UTC, so output never depends on the server's time zone) ----------

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** YYYY-MM-DD */
export function isoDay(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** DD-MM-YYYY, the order Indian registries print. */
export function indianDay(date: Date): string {
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
}

/** YYYY-MM-DD HH:mm:ss */
export function isoDateTime(date: Date): string {
  return `${isoDay(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

export function yearsBefore(years: number, from: Date = SANDBOX_NOW): Date {
  return new Date(from.getTime() - years * 365.25 * DAY_MS);
}

export function daysAfter(days: number, from: Date = SANDBOX_NOW): Date {
  return new Date(from.getTime() + days * DAY_MS);
}
