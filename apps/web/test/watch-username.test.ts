import type { UsernameLookupResponse, Watch } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { watchTargetOf } from '../src/features/results/watch.ts';
import { shownQuery } from '../src/features/watchlists/format.ts';

const results = {} as unknown as UsernameLookupResponse;

describe('a username watch on the web', () => {
  it("watches the name a username result shows, without the '@', with the search's case", () => {
    expect(
      watchTargetOf({ type: 'username', userInput: '@rohand90', results, caseReference: 'FIR 7' }),
    ).toEqual({ kind: 'username', query: 'rohand90', caseReference: 'FIR 7' });
    expect(watchTargetOf({ type: 'username', userInput: 'Rohan.D', results })).toMatchObject({
      kind: 'username',
      query: 'Rohan.D',
    });
  });

  it('still watches phone numbers with their dial code and e-mail addresses as typed', () => {
    expect(
      watchTargetOf({
        type: 'tel',
        userInput: '9876543210',
        dialCode: '91',
        results: {} as never,
      }),
    ).toMatchObject({ kind: 'tel', query: '919876543210' });
    expect(watchTargetOf({ type: 'email', userInput: 'a@example.test', results: {} as never })).toMatchObject(
      { kind: 'email', query: 'a@example.test' },
    );
  });

  it('lists a watched username as a handle, a phone number as dialled', () => {
    const watch = (kind: Watch['kind'], query_typed: string) => ({ kind, query_typed });
    expect(shownQuery(watch('username', 'rohand90'))).toBe('@rohand90');
    expect(shownQuery(watch('tel', '919876543210'))).toBe('+919876543210');
    expect(shownQuery(watch('email', 'a@example.test'))).toBe('a@example.test');
  });
});
