import type { LeakRecord } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  fieldSegments,
  formatBreachDate,
  hasMatch,
  humanizeKey,
  needlesOf,
  otherSegments,
  recordFields,
} from '../src/lib/leak-highlight.ts';

const needles = needlesOf([
  { type: 'name', value: '  José ÁLVAREZ ' },
  { type: 'email', value: ' Rich.Demo@Example.TEST ' },
  { type: 'phone', value: '+91 98765-43210' },
  { type: 'username', value: 'RohanD' },
  { type: 'name', value: '   ' },
]);

describe('needlesOf', () => {
  it('normalizes every searched value the way the server index does', () => {
    expect([...needles.names].sort()).toEqual(['alvarez', 'jose']);
    expect([...needles.emails]).toEqual(['rich.demo@example.test']);
    expect([...needles.phones]).toEqual(['9876543210']);
    expect([...needles.usernames]).toEqual(['rohand']);
  });
});

describe('fieldSegments', () => {
  it('marks the searched words of a name and keeps the text between them', () => {
    expect(fieldSegments('name', 'Dr. José Alvarez Pinto', needles)).toEqual([
      { text: 'Dr. ', match: false },
      { text: 'José', match: true },
      { text: ' ', match: false },
      { text: 'Alvarez', match: true },
      { text: ' Pinto', match: false },
    ]);
  });

  it('compares e-mails and usernames without case, phones on their last ten digits', () => {
    expect(fieldSegments('email', 'RICH.demo@example.test', needles)).toEqual([
      { text: 'RICH.demo@example.test', match: true },
    ]);
    expect(hasMatch(fieldSegments('phone', '0091-9876543210', needles))).toBe(true);
    expect(hasMatch(fieldSegments('phone', '987654321', needles))).toBe(false);
    expect(hasMatch(fieldSegments('username', 'rohand', needles))).toBe(true);
    expect(hasMatch(fieldSegments('address', 'José Alvarez Street', needles))).toBe(false);
  });

  it('marks nothing in a name when no name was searched', () => {
    expect(fieldSegments('name', 'José Alvarez', needlesOf([]))).toEqual([
      { text: 'José Alvarez', match: false },
    ]);
  });
});

describe('otherSegments', () => {
  it('marks an extra e-mail, handle or phone equal to a searched value, never a name word', () => {
    expect(hasMatch(otherSegments(' rich.demo@example.test ', needles))).toBe(true);
    expect(hasMatch(otherSegments('+91 98765 43210', needles))).toBe(true);
    expect(hasMatch(otherSegments('jose', needles))).toBe(false);
  });
});

describe('humanizeKey', () => {
  it('turns keys into labels with the acronyms upper-cased', () => {
    expect(humanizeKey('ip_address')).toBe('IP Address');
    expect(humanizeKey('dateOfBirth')).toBe('Date Of Birth');
    expect(humanizeKey('zip-code')).toBe('Zip Code');
    expect(humanizeKey('___')).toBe('___');
  });
});

describe('recordFields', () => {
  it('lists the own fields in reading order, then the extra ones, leaving empty values out', () => {
    const record = {
      id: 'r1',
      name: 'José Alvarez',
      email: '  ',
      phone: '9876543210',
      other: { ip_address: '10.0.0.1', backup_email: 'rich.demo@example.test', empty: '', flag: true },
    } as unknown as LeakRecord;
    const fields = recordFields(record, needles);
    expect(fields.map((field) => [field.key, field.label, field.value])).toEqual([
      ['name', 'Name', 'José Alvarez'],
      ['phone', 'Phone', '9876543210'],
      ['other.ip_address', 'IP Address', '10.0.0.1'],
      ['other.backup_email', 'Backup Email', 'rich.demo@example.test'],
      ['other.flag', 'Flag', 'true'],
    ]);
    expect(fields.map((field) => hasMatch(field.segments))).toEqual([true, true, false, true, false]);
  });
});

describe('formatBreachDate', () => {
  it('shows a day as day, short month and year, and anything else as it came', () => {
    expect(formatBreachDate('2019-03-14')).toBe('14 Mar 2019');
    expect(formatBreachDate('2019-03-14T23:59:00+05:30')).toBe('14 Mar 2019');
    expect(formatBreachDate('spring 2019')).toBe('spring 2019');
    expect(formatBreachDate('2019-13-45')).toBe('2019-13-45');
  });

  it('shows a month alone, as leak-search vendors date breaches, as short month and year', () => {
    expect(formatBreachDate('2019-07')).toBe('Jul 2019');
    expect(formatBreachDate('2019-13')).toBe('2019-13');
  });
});
