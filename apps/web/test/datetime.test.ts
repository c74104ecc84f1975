import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, localDay } from '../src/lib/datetime.ts';

// The web project runs with TZ=UTC (vitest.config.ts), so local time is UTC here.
describe('formatDateTime', () => {
  it('shows day first, with or without seconds', () => {
    expect(formatDateTime('2025-03-14T10:32:45Z')).toBe('14 Mar 2025, 10:32');
    expect(formatDateTime('2025-03-14T10:32:45Z', true)).toBe('14 Mar 2025, 10:32:45');
  });

  it('is empty for a missing or unreadable value', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('yesterday')).toBe('');
  });
});

describe('formatDate', () => {
  it('reads a bare day as that calendar day', () => {
    expect(formatDate('2021-03-04')).toBe('4 Mar 2021');
    expect(formatDate('2021-03-04T23:30:00Z')).toBe('4 Mar 2021');
    expect(formatDate('')).toBe('');
    expect(formatDate('soon')).toBe('');
  });
});

describe('localDay', () => {
  it('pads month and day', () => {
    expect(localDay(new Date(2024, 0, 5, 12))).toBe('2024-01-05');
    expect(localDay(new Date(2024, 10, 25))).toBe('2024-11-25');
  });
});
