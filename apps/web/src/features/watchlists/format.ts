import type { Watch } from '@footprint/domain';

/**
 * A watched phone number is kept as dial code and digits: shown as it is dialled. A username is shown
 * as a handle ('@rohand90'), as its results page shows it.
 */
export const shownQuery = (watch: Pick<Watch, 'kind' | 'query_typed'>) =>
  watch.kind === 'tel'
    ? `+${watch.query_typed}`
    : watch.kind === 'username'
      ? `@${watch.query_typed.replace(/^@/, '')}`
      : watch.query_typed;

/** The badge colour of a watch's status. */
export const statusTone: Record<string, string> = {
  active: 'status-on',
  paused: 'status-off',
  stopped_no_credits: 'status-conflict',
};
