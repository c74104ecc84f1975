import type { Watch } from '@footprint/domain';

/** A watched phone number is kept as dial code and digits: shown as it is dialled. */
export const shownQuery = (watch: Watch) =>
  watch.kind === 'tel' ? `+${watch.query_typed}` : watch.query_typed;

/** The badge colour of a watch's status. */
export const statusTone: Record<string, string> = {
  active: 'status-on',
  paused: 'status-off',
  stopped_no_credits: 'status-conflict',
};
