/** What other features use of the history: labels of search kinds and statuses, and reopening a stored search. */
export { useOpenHistoryEntry } from './api/getHistoryEntry.ts';
export { isStoredLeakResult, StoredLeakPage } from './components/StoredLeakPage.tsx';
export { baseKind, kindLabel, shownQuery, statusTone } from './format.ts';
export { resultsStateOf } from './reopen.ts';
