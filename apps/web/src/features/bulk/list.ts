import { BULK_MAX_ROWS, type BulkPreview, type BulkRow, type BulkStatus, messages } from '@footprint/domain';

/**
 * The /bulk page's pure rules: reading a pasted list, what a preview tells the user, and which
 * buttons a job's status allows. Kept apart from the components so that unit tests read them.
 */

const t = messages.bulkPage;

/** A pasted list: its values, and for each the line of the text box it came from (1-based). */
export interface PastedList {
  values: string[];
  lines: number[];
}

/**
 * One value per line, each trimmed; blank lines are left out (a list pasted from a spreadsheet often
 * ends in one) but the line numbers stay those of the text box, so that the preview's 'Line' column
 * points at the line the user sees.
 */
export function parsePastedList(text: string): PastedList {
  const values: string[] = [];
  const lines: number[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const value = raw.trim();
    if (!value) return;
    values.push(value);
    lines.push(index + 1);
  });
  return { values, lines };
}

/** The browser's check of a pasted list before it is sent; `null` when it may go to the server. */
export function pastedListError(list: PastedList): string | null {
  if (list.values.length === 0) return t.pasteEmpty;
  if (list.values.length > BULK_MAX_ROWS)
    return `A bulk lookup takes at most ${BULK_MAX_ROWS.toLocaleString('en')} rows.`;
  return null;
}

const uploadTypes = /\.(csv|xlsx)$/i;

/** Only CSV and XLSX files are read by the server; anything else is refused before it is sent. */
export function uploadError(file: File | null | undefined): string | null {
  if (!file) return t.noFile;
  return uploadTypes.test(file.name) ? null : t.wrongFileType;
}

/** '2.4 KB', for the chosen file's label. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** How many invalid rows the preview lists; the rest are counted. */
export const INVALID_SHOWN = 50;

export interface PreviewView {
  /** The invalid rows to list, their line numbers those the user sees (the text box's for a paste). */
  invalidShown: BulkPreview['invalid'];
  /** Invalid rows beyond those listed. */
  invalidMore: number;
  /** The most the job can cost is more than the balance: it will stop when credits run out. */
  overBalance: boolean;
  /** No valid row: Start is not offered. */
  nothingToRun: boolean;
}

/**
 * What the preview panel shows of the server's answer. `lines` (a pasted list's) turns the server's
 * row numbers, which count the values sent, back into the text box's line numbers.
 */
export function previewView(preview: BulkPreview, lines?: readonly number[]): PreviewView {
  const invalidShown = preview.invalid.slice(0, INVALID_SHOWN).map((row) => ({
    ...row,
    line: lines?.[row.line - 1] ?? row.line,
  }));
  return {
    invalidShown,
    invalidMore: Math.max(0, preview.invalid.length - INVALID_SHOWN),
    overBalance: preview.cost > preview.balance,
    nothingToRun: preview.valid === 0,
  };
}

/**
 * A job in one of these states changes no more: its results can be downloaded. `not_approved`: its
 * request for approval was rejected or expired, and every row was skipped.
 */
export const isFinal = (status: BulkStatus): boolean =>
  status === 'done' || status === 'cancelled' || status === 'stopped' || status === 'not_approved';

export type BulkAction = 'pause' | 'resume' | 'cancel';

/** The buttons a job shows: only the changes its status allows (the server answers 409 to others). */
export function jobActions(status: BulkStatus): BulkAction[] {
  switch (status) {
    // Waiting for a supervisor's approval: its owner may withdraw it; pausing means nothing yet.
    case 'awaiting_approval':
      return ['cancel'];
    case 'queued':
    case 'running':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    default:
      return [];
  }
}

/** The status badge's tone, in the classes the history page uses. */
export function statusTone(status: BulkStatus): string {
  switch (status) {
    case 'done':
      return 'status-on';
    case 'running':
    case 'queued':
      return 'chip-sky';
    case 'paused':
    case 'awaiting_approval':
      return 'chip-amber';
    case 'stopped':
      return 'status-conflict';
    // cancelled and not_approved: nothing (more) ran.
    default:
      return 'status-off';
  }
}

/** Whole percent of the rows finished, 0 for an empty job. */
export const percentDone = (done: number, total: number): number =>
  total > 0 ? Math.min(100, Math.max(0, Math.floor((done / total) * 100))) : 0;

/** A username row's accounts listed at once in the rows table; the rest fold under 'and N more'. */
export const ACCOUNTS_SHOWN = 3;

/** An account as the rows table shows it: its site's name, linked to its profile when that is http(s). */
export interface AccountLink {
  site: string;
  url: string;
  /** The link's target; undefined for an address that is not http(s) (shown as text, never linked). */
  href: string | undefined;
}

const httpHref = (url: string): string | undefined => {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
};

/** A username row's found accounts for the rows table: the first few, and the rest folded. */
export function accountsView(accounts: BulkRow['accounts']): { shown: AccountLink[]; folded: AccountLink[] } {
  const links = accounts.map((account) => ({ ...account, href: httpHref(account.url) }));
  return { shown: links.slice(0, ACCOUNTS_SHOWN), folded: links.slice(ACCOUNTS_SHOWN) };
}

/**
 * What a username row's 'Found on' says: how many sites have the name, once its lookup answered (a
 * name found nowhere: 0); nothing for a row that did not run or failed.
 */
export function foundOn(row: Pick<BulkRow, 'status' | 'accounts'>): number | null {
  return row.status === 'success' || row.status === 'cached' || row.status === 'no_record'
    ? row.accounts.length
    : null;
}
