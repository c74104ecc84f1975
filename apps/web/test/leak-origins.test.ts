import { describe, expect, it } from 'vitest';
import { originStatusParts, originsOf } from '../src/lib/leak-origins.ts';

describe('originsOf', () => {
  it('lists each origin of a record once, and none for records stored before federation', () => {
    expect(
      originsOf({
        origins: [
          { kind: 'local', name: 'Local index' },
          { kind: 'vendor', name: 'LeakCheck' },
          { kind: 'vendor', name: 'LeakCheck' },
        ],
      }),
    ).toEqual([
      { kind: 'local', name: 'Local index' },
      { kind: 'vendor', name: 'LeakCheck' },
    ]);
    expect(originsOf({})).toEqual([]);
    expect(originsOf({ origins: 'LeakCheck' })).toEqual([]);
  });

  it('drops entries it cannot label', () => {
    expect(
      originsOf({
        origins: [{ kind: 'vendor', name: '  ' }, { kind: 'elsewhere', name: 'X' }, null, { name: 'Y' }],
      }),
    ).toEqual([]);
  });
});

describe('originStatusParts', () => {
  const statuses = [
    { kind: 'local', name: 'Local index', status: 'ok', records: 1234 },
    { kind: 'vendor', name: 'LeakCheck', status: 'rate_limited', records: 0 },
    { kind: 'vendor', name: 'Other Vendor', status: 'not_found', records: 0 },
    { kind: 'vendor', name: 'Third Vendor', status: 'timed_out', records: 0 },
    { kind: 'vendor', name: 'Fourth Vendor', status: 'unsupported', records: 0 },
  ];

  it('gives each origin its count or what kept it from answering, flagging trouble', () => {
    expect(originStatusParts(statuses)).toEqual([
      { name: 'Local index', text: 'Local index: 1,234', trouble: false },
      { name: 'LeakCheck', text: 'LeakCheck: rate limited', trouble: true },
      { name: 'Other Vendor', text: 'Other Vendor: none', trouble: false },
      { name: 'Third Vendor', text: 'Third Vendor: timed out', trouble: true },
      { name: 'Fourth Vendor', text: 'Fourth Vendor: cannot search these fields', trouble: false },
    ]);
  });

  it('marks a capped local count as a lower bound, and only the local one', () => {
    const parts = originStatusParts(
      [
        { kind: 'local', name: 'Local index', status: 'ok', records: 10_000 },
        { kind: 'vendor', name: 'LeakCheck', status: 'ok', records: 3 },
      ],
      true,
    );
    expect(parts.map((part) => part.text)).toEqual(['Local index: 10,000+', 'LeakCheck: 3']);
  });

  it('ignores what it does not understand', () => {
    expect(originStatusParts(undefined)).toEqual([]);
    expect(
      originStatusParts([
        { kind: 'vendor', name: 'LeakCheck', status: 'exploded', records: 1 },
        { kind: 'vendor', status: 'ok', records: 1 },
        { kind: 'vendor', name: 'Negative', status: 'ok', records: -4 },
      ]),
    ).toEqual([{ name: 'Negative', text: 'Negative: 0', trouble: false }]);
  });
});
