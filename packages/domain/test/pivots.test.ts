import { describe, expect, it } from 'vitest';
import { pivotOf, profilePivots, SEARCH_KIND_DECLARATIONS, SEARCH_KINDS } from '../src/index.ts';

const ref = 'FIR 214/2026';

describe('pivotOf', () => {
  it('leads each entity type to the search its kind declares', () => {
    expect(pivotOf('phone', '+91 98765 43210', ref)).toEqual({
      kind: 'tel',
      action: 'Phone lookup',
      method: 'GET',
      path: '/api/tel',
      query: { number: '919876543210', case_reference: ref },
      liveOnly: false,
    });
    expect(pivotOf('email', 'rich.demo@example.test', ref)).toEqual({
      kind: 'email',
      action: 'E-mail lookup',
      method: 'GET',
      path: '/api/email',
      query: { email: 'rich.demo@example.test', case_reference: ref },
      liveOnly: false,
    });
    expect(pivotOf('name', 'Rohan Deshmukh', ref)).toEqual({
      kind: 'leak',
      action: 'Leak search for this name',
      method: 'POST',
      path: '/api/leak-data-finder',
      body: { fields: [{ type: 'name', value: 'Rohan Deshmukh' }], case_reference: ref },
      liveOnly: false,
    });
    // A username leads to the accounts it has (the leak search still takes one on its own page).
    expect(pivotOf('username', '@rohand90', ref)).toEqual({
      kind: 'username',
      action: 'Username lookup',
      method: 'GET',
      path: '/api/username',
      query: { username: 'rohand90', case_reference: ref },
      liveOnly: false,
    });
    expect(pivotOf('vehicle_rc', 'MH12FP1234', ref)).toEqual({
      kind: 'rc',
      action: 'RC details',
      method: 'POST',
      path: '/api/rcfull-details',
      body: { id_number: 'MH12FP1234', case_reference: ref },
      liveOnly: false,
    });
    expect(pivotOf('upi', 'rohan.deshmukh@oksbi', ref)).toEqual({
      kind: 'upi',
      action: 'UPI details',
      method: 'POST',
      path: '/api/upifull-details',
      body: { upi_id: 'rohan.deshmukh@oksbi', case_reference: ref },
      liveOnly: false,
    });
    expect(pivotOf('pan', 'BQZPD4821K', ref)).toEqual({
      kind: 'verification:pan',
      action: 'PAN verification',
      method: 'POST',
      path: '/api/verification-id',
      body: { type: 'pan', data: { pan: 'BQZPD4821K' }, case_reference: ref },
      liveOnly: true,
    });
  });

  it('offers nothing for a value no kind takes', () => {
    for (const type of ['address', 'employer', 'ifsc', 'domain', 'bank_account', 'nonsense']) {
      expect(pivotOf(type, 'x', ref)).toBeNull();
    }
  });

  it('each entity type leads to one kind, on that kind’s own endpoint', () => {
    const seen = new Map<string, string>();
    for (const kind of SEARCH_KINDS) {
      const { pivot, request } = SEARCH_KIND_DECLARATIONS[kind];
      for (const entity of pivot?.entities ?? []) {
        expect(seen.get(entity), `${entity} is offered by ${seen.get(entity)} and ${kind}`).toBeUndefined();
        seen.set(entity, kind);
        expect(pivot!.request('x', entity).path).toBe(request.path);
      }
    }
  });
});

describe('profilePivots', () => {
  it('offers the username lookup beside a profile’s usernames, and nothing the declarations do not offer', () => {
    expect(profilePivots('Usernames')).toEqual([{ kind: 'username', action: 'Username lookup' }]);
    // A phone or e-mail on a profile is the subject's own kind of value: no pivot is declared for it.
    expect(profilePivots('Phone')).toEqual([]);
    expect(profilePivots('E-mail')).toEqual([]);
    expect(profilePivots('Occupation')).toEqual([]);
  });

  it('follows the declaration: every kind offered from a profile takes the entity of an attribute', () => {
    const offered = SEARCH_KINDS.filter((kind) => SEARCH_KIND_DECLARATIONS[kind].pivot?.fromProfile);
    expect(offered).toEqual(['username']);
  });
});
