/**
 * The results feature's public contract: what a search (the dashboard) or a reopened lookup (history)
 * hands to /results through navigation state. Other features import only this file.
 */
export { type ResultsState, readResultsState } from './resultsState.ts';
