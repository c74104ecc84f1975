import { describe, expect, it } from 'vitest';
import { isNoRecordAnswer } from '../src/features/results/modals/useDetailLookups.ts';

const NOT_FOUND = {
  data: null,
  status_code: 422,
  success: false,
  message: 'No records found',
  message_code: 'not_found',
};

describe('isNoRecordAnswer (the detail modal says "no credits were charged")', () => {
  it('reads the vendor no-record envelope, and a missing one, as no record', () => {
    expect(isNoRecordAnswer({ data: NOT_FOUND })).toBe(true);
    const notFound404 = { ...NOT_FOUND, status_code: 404 };
    expect(isNoRecordAnswer({ data: notFound404 })).toBe(true);
    expect(isNoRecordAnswer({ data: null })).toBe(true);
    expect(isNoRecordAnswer(null)).toBe(true);
  });

  it('reads a record as a record, also an empty one (an RC with no challans was charged)', () => {
    expect(isNoRecordAnswer({ data: { data: { rc_number: 'MH12FP1234' }, success: true } })).toBe(false);
    expect(isNoRecordAnswer({ data: { data: { challan_details: [] }, success: true } })).toBe(false);
  });
});
