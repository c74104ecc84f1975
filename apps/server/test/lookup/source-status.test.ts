import { messages, stateOfMessage } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { SOURCE_MESSAGES } from '../../src/providers/runner.ts';

/**
 * The results page and the reports read a stored error message back into its state (answers stored
 * before `source_status` existed) and leave out a message that only repeats its state: both rely on
 * the domain's words being the runner's.
 */
describe('source status words', () => {
  it('are the messages the runner gives', () => {
    const words = messages.sources;
    expect(words.stateMessages).toEqual({
      not_found: SOURCE_MESSAGES.not_found,
      not_configured: SOURCE_MESSAGES.not_configured,
      rate_limited: SOURCE_MESSAGES.rate_limited,
      failed: SOURCE_MESSAGES.failed,
      timed_out: SOURCE_MESSAGES.timed_out,
    });
    expect(words.pausedMessage).toBe(SOURCE_MESSAGES.open);
  });

  it('read every runner failure back as its state, and any other message as no record', () => {
    expect(stateOfMessage(SOURCE_MESSAGES.failed)).toBe('failed');
    expect(stateOfMessage(SOURCE_MESSAGES.open)).toBe('failed');
    expect(stateOfMessage(SOURCE_MESSAGES.timed_out)).toBe('timed_out');
    expect(stateOfMessage(SOURCE_MESSAGES.rate_limited)).toBe('rate_limited');
    expect(stateOfMessage(SOURCE_MESSAGES.not_found)).toBe('not_found');
    expect(stateOfMessage('No caller app knows this number.')).toBe('not_found');
  });
});
