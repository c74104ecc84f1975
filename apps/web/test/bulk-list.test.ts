import type { BulkPreview } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../src/features/bulk/api/previewBulk.ts';
import {
  ACCOUNTS_SHOWN,
  accountsView,
  foundOn,
  isFinal,
  jobActions,
  parsePastedList,
  pastedListError,
  percentDone,
  previewView,
  statusTone,
  uploadError,
} from '../src/features/bulk/list.ts';

const preview = (patch: Partial<BulkPreview>): BulkPreview => ({
  type: 'tel',
  total: 4,
  valid: 3,
  duplicates: 0,
  invalid: [],
  cost_per_row: 1,
  cost: 3,
  balance: 500,
  ...patch,
});

describe('parsePastedList', () => {
  it('reads one trimmed value per line, leaves blank lines out and keeps the text box line numbers', () => {
    expect(parsePastedList(' 9876543210 \r\n\n+91 91234 56780\r  \nnot a number\n')).toEqual({
      values: ['9876543210', '+91 91234 56780', 'not a number'],
      lines: [1, 3, 5],
    });
  });

  it('gives nothing for an empty or blank text', () => {
    expect(parsePastedList('')).toEqual({ values: [], lines: [] });
    expect(parsePastedList('\n \n\t\n')).toEqual({ values: [], lines: [] });
  });
});

describe('pastedListError', () => {
  it('refuses an empty list and one past the row limit, and lets the rest go to the server', () => {
    expect(pastedListError(parsePastedList('  \n'))).toBe('Paste at least one value, one per line.');
    const tooMany = parsePastedList(
      Array.from({ length: 10_001 }, (_, i) => `a${i}@example.test`).join('\n'),
    );
    expect(pastedListError(tooMany)).toBe('A bulk lookup takes at most 10,000 rows.');
    expect(pastedListError(parsePastedList('x\ny'))).toBeNull();
  });
});

describe('uploadError', () => {
  it('takes CSV and XLSX files only', () => {
    expect(uploadError(null)).toBe('Choose a CSV or XLSX file first.');
    expect(uploadError(new File(['a'], 'list.CSV'))).toBeNull();
    expect(uploadError(new File(['a'], 'list.xlsx'))).toBeNull();
    expect(uploadError(new File(['a'], 'list.xls'))).toBe('Choose a .csv or .xlsx file.');
    expect(uploadError(new File(['a'], 'list.csv.exe'))).toBe('Choose a .csv or .xlsx file.');
  });
});

describe('previewView', () => {
  it('lists the first 50 invalid rows and counts the rest', () => {
    const invalid = Array.from({ length: 73 }, (_, i) => ({
      line: i + 1,
      value: `bad${i}`,
      error: 'Not a number.',
    }));
    const view = previewView(preview({ invalid }));
    expect(view.invalidShown).toHaveLength(50);
    expect(view.invalidShown[49]).toEqual({ line: 50, value: 'bad49', error: 'Not a number.' });
    expect(view.invalidMore).toBe(23);
  });

  it("maps a pasted list's row numbers back to the text box's lines", () => {
    const { lines } = parsePastedList('9876543210\n\nbad\n\n\nworse');
    const view = previewView(
      preview({
        invalid: [
          { line: 2, value: 'bad', error: 'Not a number.' },
          { line: 3, value: 'worse', error: 'Not a number.' },
        ],
      }),
      lines,
    );
    expect(view.invalidShown.map((row) => row.line)).toEqual([3, 6]);
  });

  it('warns when the cost passes the balance, and offers nothing to run without a valid row', () => {
    expect(previewView(preview({ cost: 3, balance: 3 })).overBalance).toBe(false);
    expect(previewView(preview({ cost: 4, balance: 3 })).overBalance).toBe(true);
    expect(previewView(preview({ valid: 0, cost: 0 })).nothingToRun).toBe(true);
    expect(previewView(preview({})).nothingToRun).toBe(false);
  });
});

describe('job states', () => {
  it('shows only the changes a status allows', () => {
    expect(jobActions('queued')).toEqual(['pause', 'cancel']);
    expect(jobActions('running')).toEqual(['pause', 'cancel']);
    expect(jobActions('paused')).toEqual(['resume', 'cancel']);
    for (const status of ['done', 'cancelled', 'stopped'] as const) {
      expect(jobActions(status)).toEqual([]);
      expect(isFinal(status)).toBe(true);
    }
    expect(isFinal('paused')).toBe(false);
  });

  it("lets a job waiting for a supervisor's approval only be cancelled, and ends a job not approved", () => {
    expect(jobActions('awaiting_approval')).toEqual(['cancel']);
    expect(isFinal('awaiting_approval')).toBe(false);
    expect(jobActions('not_approved')).toEqual([]);
    expect(isFinal('not_approved')).toBe(true);
    expect(statusTone('awaiting_approval')).toBe('chip-amber');
    expect(statusTone('not_approved')).toBe(statusTone('cancelled'));
  });

  it('rounds progress down and never divides by zero', () => {
    expect(percentDone(0, 0)).toBe(0);
    expect(percentDone(1, 3)).toBe(33);
    expect(percentDone(3, 3)).toBe(100);
  });
});

describe('the request body', () => {
  it('sends a pasted list as JSON, with the case reference only when there is one', () => {
    expect(bodyOf({ source: 'paste', type: 'email', values: ['a@example.test'] })).toEqual({
      type: 'email',
      values: ['a@example.test'],
    });
    expect(
      bodyOf({ source: 'paste', type: 'tel', values: ['9876543210'], caseReference: 'FIR 1/2026' }),
    ).toEqual({ type: 'tel', values: ['9876543210'], case_reference: 'FIR 1/2026' });
  });

  it('sends a file as multipart form-data, its fields before the file', async () => {
    const file = new File(['phone\n9876543210\n'], 'numbers.csv', { type: 'text/csv' });
    const body = bodyOf({ source: 'file', type: 'tel', file, caseReference: 'FIR 1/2026' });
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect([...form.keys()]).toEqual(['type', 'case_reference', 'file']);
    expect(form.get('type')).toBe('tel');
    const sent = form.get('file') as File;
    expect(sent.name).toBe('numbers.csv');
    expect(await sent.text()).toBe('phone\n9876543210\n');
    expect([...(bodyOf({ source: 'file', type: 'email', file }) as FormData).keys()]).toEqual([
      'type',
      'file',
    ]);
  });
});

describe("a username row's accounts", () => {
  const accounts = Array.from({ length: 5 }, (_, i) => ({
    site: `Site ${i}`,
    url: `https://site${i}.example.test/rohand90`,
  }));

  it('shows the first few as links and folds the rest, in the order the server gave', () => {
    const view = accountsView(accounts);
    expect(view.shown.map((a) => a.site)).toEqual(['Site 0', 'Site 1', 'Site 2']);
    expect(view.shown).toHaveLength(ACCOUNTS_SHOWN);
    expect(view.folded.map((a) => a.site)).toEqual(['Site 3', 'Site 4']);
    expect(view.shown[0]).toEqual({ ...accounts[0], href: 'https://site0.example.test/rohand90' });
    expect(accountsView([])).toEqual({ shown: [], folded: [] });
  });

  it('links only http(s) addresses', () => {
    const [script, data, plain] = accountsView([
      { site: 'Bad', url: 'javascript:alert(1)' },
      { site: 'Data', url: 'data:text/html,x' },
      { site: 'Old', url: 'http://old.example.test/u/x' },
    ]).shown;
    expect(script?.href).toBeUndefined();
    expect(data?.href).toBeUndefined();
    expect(plain?.href).toBe('http://old.example.test/u/x');
  });

  it('counts the sites found once the lookup answered, none for a row that did not run', () => {
    expect(foundOn({ status: 'success', accounts })).toBe(5);
    expect(foundOn({ status: 'cached', accounts })).toBe(5);
    expect(foundOn({ status: 'no_record', accounts: [] })).toBe(0);
    for (const status of ['pending', 'failed', 'skipped', 'insufficient_credits'] as const)
      expect(foundOn({ status, accounts: [] })).toBeNull();
  });
});
