import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { nameTokens } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { parseMapOption } from '../../src/modules/leaks/import/cli.ts';
import { CopyBytes } from '../../src/modules/leaks/import/copy-text.ts';
import {
  canonicalRecordJson,
  isSecretColumn,
  LeakRecordBuilder,
} from '../../src/modules/leaks/import/index.ts';
import {
  csvRows,
  flattenJson,
  type LineChunk,
  readLines,
  type SourceLine,
  splitCsv,
} from '../../src/modules/leaks/import/readers.ts';
import { sortedEntriesJson } from '../../src/modules/leaks/import/record.ts';
import { arrayLiteral, copyText, copyValue } from '../../src/modules/leaks/import/writer.ts';

async function lines(chunks: (string | Buffer)[], max?: number): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const chunk of readLines(
    Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))),
    max,
  )) {
    out.push(...chunk.lines);
  }
  return out;
}

async function csv(text: string) {
  async function* one(): AsyncGenerator<LineChunk> {
    for await (const chunk of readLines(Readable.from([Buffer.from(text)]))) yield chunk;
  }
  const rows = [];
  for await (const chunk of csvRows(one())) rows.push(...chunk.rows);
  return rows;
}

describe('readLines', () => {
  it('splits on LF and CRLF across chunk boundaries, even inside a multi-byte character', async () => {
    const bytes = Buffer.from('\uFEFFname\r\nJosé\r\nZoë');
    const cut = bytes.indexOf(Buffer.from('é')) + 1; // between the two bytes of 'é'
    const result = await lines([
      bytes.subarray(0, cut),
      bytes.subarray(cut, cut + 2),
      bytes.subarray(cut + 2),
    ]);
    expect(result).toEqual([
      { line: 1, text: 'name' },
      { line: 2, text: 'José' },
      { line: 3, text: 'Zoë' },
    ]);
  });

  it('reports an over-long line by its beginning only and carries on', async () => {
    const result = await lines(['short\n', 'x'.repeat(50), 'x'.repeat(60), '\nnext\n'], 100);
    expect(result.map((l) => [l.line, l.tooLong ?? false, l.text.length])).toEqual([
      [1, false, 5],
      [2, true, 100],
      [3, false, 4],
    ]);
  });
});

describe('splitCsv', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a,,c,', ['a', '', 'c', '']],
    ['"a,1","b ""q""",c', ['a,1', 'b "q"', 'c']],
    ['5" screen,x', ['5" screen', 'x']],
    ['"quoted"tail,x', ['quotedtail', 'x']],
    ['""', ['']],
  ])('%s', (text, fields) => {
    expect(splitCsv(text, ',')).toEqual({ fields, open: false });
  });

  it('says when a quoted field is still open', () => {
    expect(splitCsv('a,"open', ',').open).toBe(true);
  });
});

describe('csvRows', () => {
  it('keeps a quoted field that spans lines and numbers rows by their first line', async () => {
    const rows = await csv('name,address\n"A","Flat 1\nLane 2"\nB,x\n');
    expect(rows.map((r) => [r.line, r.values, r.error])).toEqual([
      [2, ['A', 'Flat 1\nLane 2'], undefined],
      [4, ['B', 'x'], undefined],
    ]);
  });

  it('blames the first line when a stray quote glues lines into a wrong-sized record', async () => {
    const rows = await csv('a,b\n"x,1\ny,2"\nz,3\n');
    expect(rows.map((r) => [r.line, r.error ?? r.values])).toEqual([
      [2, 'unterminated quoted field'],
      [3, ['y', '2"']],
      [4, ['z', '3']],
    ]);
  });
});

describe('secret columns', () => {
  it.each([
    'password',
    'Password',
    'PASSWORD_HASH',
    'passwordhash',
    'PasswordHash',
    'passwd',
    'pass',
    'pwd',
    'hash',
    'salt',
    'secret',
    'token',
    'user_password',
    'userpassword',
    'pass_hash',
    'md5',
    'bcrypt_hash',
    'api_token',
    'accessToken',
    'client-secret',
    'other.password',
    'sessions.0.token',
  ])('%s is a secret', (name) => {
    expect(isSecretColumn(name)).toBe(true);
  });

  it.each(['passport', 'passport_no', 'hashtag', 'compass', 'pincode', 'pin', 'email', 'city', 'username'])(
    '%s is not',
    (name) => {
      expect(isSecretColumn(name)).toBe(false);
    },
  );
});

describe('records', () => {
  it('hashes the source name with a canonical record: column order does not matter, the source does', () => {
    const a = new LeakRecordBuilder('Fictional A').build(
      ['email', 'city', 'zip'],
      ['a@example.com', 'Pune', '411001'],
    );
    const b = new LeakRecordBuilder('Fictional A').build(
      ['zip', 'city', 'email'],
      ['411001', 'Pune', 'a@example.com'],
    );
    const c = new LeakRecordBuilder('Fictional B').build(
      ['email', 'city', 'zip'],
      ['a@example.com', 'Pune', '411001'],
    );
    expect('recordHash' in a && 'recordHash' in b && 'recordHash' in c).toBe(true);
    if (!('recordHash' in a) || !('recordHash' in b) || !('recordHash' in c)) return;
    expect(a.recordHash).toBe(b.recordHash);
    expect(a.recordHash).not.toBe(c.recordHash);
    expect(canonicalRecordJson(a)).toBe(
      JSON.stringify({
        name: null,
        email: 'a@example.com',
        phone: null,
        username: null,
        address: null,
        other: { city: 'Pune', zip: '411001' },
      }),
    );
  });

  it('writes sorted entries as JSON.stringify of the object they make, whatever the keys', () => {
    const cases: [string, string][][] = [
      [],
      [['city', 'Pune']],
      [
        ['a"b', 'x\u0001y'],
        ['city', 'Pune, "MH"\n'],
        ['zip', '411001'],
      ],
      // Integer-like keys come first in an object, in numeric order.
      [
        ['10', 'ten'],
        ['9', 'nine'],
        ['a', 'x'],
      ],
      // A repeated key keeps its first place and its last value.
      [
        ['city', 'first'],
        ['city', 'second'],
        ['zip', '1'],
      ],
      [
        ['', 'empty key'],
        ['__proto__', 'plain key'],
        ['constructor', 'c'],
        ['ünïcödé', '😀'],
      ],
    ];
    for (const entries of cases) {
      expect(sortedEntriesJson(entries)).toBe(JSON.stringify(Object.fromEntries(entries)));
    }
  });

  it('keeps the record hash defined as sha256 of the source, a NUL and the record as an object', () => {
    const columns = ['Name', 'e-mail', '2fa', 'city', 'zip', '__proto__', 'note'];
    const values = ['José Álvarez', 'j@example.com', 'yes', 'Pune', '411001', 'p', 'say "hi"'];
    const built = new LeakRecordBuilder('Fictional A').build(columns, values);
    if (!('recordHash' in built)) throw new Error(built.reject);
    const other = Object.fromEntries(
      [
        ['2fa', 'yes'],
        ['__proto__', 'p'],
        ['city', 'Pune'],
        ['note', 'say "hi"'],
        ['zip', '411001'],
      ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
    );
    const record = {
      name: 'José Álvarez',
      email: 'j@example.com',
      phone: null,
      username: null,
      address: null,
      other,
    };
    expect(built.otherJson).toBe(JSON.stringify(other));
    expect(built.recordHash).toBe(
      createHash('sha256')
        .update(`Fictional A\u0000${JSON.stringify(record)}`)
        .digest('hex'),
    );
  });

  it('tokenizes names the same with or without the plain-ASCII shortcut', () => {
    const reference = (value: string) =>
      value
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((token) => token.length > 0);
    for (const name of [
      'Rohan  DESHMUKH',
      "O'Brien-Smith Jr.",
      'José ÁLVAREZ',
      'Zoë Ångström',
      'Søren Øyen',
      'राहुल शर्मा',
      '  ',
      'a\u0301b c_d 42',
    ]) {
      expect(nameTokens(name)).toEqual(reference(name));
    }
  });

  it('treats placeholder values as empty', () => {
    const row = new LeakRecordBuilder('Fictional').build(
      ['email', 'phone', 'city'],
      ['a@example.com', 'NULL', 'n/a'],
    );
    expect(row).toMatchObject({ phone: null, otherJson: null });
  });

  it('flattens JSON and unwraps a top-level other object', () => {
    const columns: string[] = [];
    const values: string[] = [];
    expect(
      flattenJson({ a: { b: 1 }, other: { c: 'x' }, d: [1, null, 'y'], e: null }, columns, values),
    ).toBeNull();
    expect(Object.fromEntries(columns.map((c, i) => [c, values[i]]))).toEqual({
      'a.b': '1',
      c: 'x',
      d: '1, y',
    });
    expect(flattenJson({ a: { b: { c: { d: { e: 'deep' } } } } }, [], [])).toBe('nested too deeply');
  });
});

describe('COPY text format', () => {
  it('escapes what COPY reads specially', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(arrayLiteral(['null', 'a"b', 'c\\d'])).toBe('{"null","a\\"b","c\\\\d"}');
  });

  it('encodes a batch row by row into the same bytes as the text, growing past its capacity', () => {
    const builder = new LeakRecordBuilder('Fictional');
    const records = [
      ['Zoë Ångström', 'z@example.com', 'Pune\tMH'],
      ['राहुल शर्मा', 'r@example.com', 'line\nbreak \\ 😀'],
      ['Plain Name', 'p@example.com', 'x'],
    ].map(([name, email, city]) => {
      const built = builder.build(
        ['name', 'email', 'city'],
        [name as string, email as string, city as string],
      );
      if (!('recordHash' in built)) throw new Error(built.reject);
      return built;
    });
    const bytes = new CopyBytes(16);
    for (const record of records) bytes.append(record);
    expect(Buffer.from(bytes.bytes()).toString('utf8')).toBe(copyText(records));
    expect(bytes.bytes().byteLength).toBe(Buffer.byteLength(copyText(records)));
  });
});

describe('--map', () => {
  it('takes field=column pairs, several columns for one field, and column=field', () => {
    expect(parseMapOption(['email=email_address,name=first_name', 'name=last_name', 'Mobile=phone'])).toEqual(
      {
        email_address: 'email',
        first_name: 'name',
        last_name: 'name',
        Mobile: 'phone',
      },
    );
    expect(() => parseMapOption(['foo=bar'])).toThrow(/one side must be/);
  });
});
