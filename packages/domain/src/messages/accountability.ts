import { SEARCH_FAMILIES } from '../catalogue/kinds.ts';

const searchFamilyLabels: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SEARCH_FAMILIES).map(([family, { label }]) => [family, label]),
);

/** The case reference, search history and credit statement (not in the spec). */
export const accountabilityTexts = {
  /** The case reference every search screen carries (not in the spec; added for accountability). */
  caseReference: {
    label: 'Case reference',
    optional: 'Optional',
    placeholder: 'e.g. FIR 214/2025',
    hint: 'Files the search under your case of this reference: pick an open case or type a new reference to open one. Shown in your search history, the audit trail and reports.',
    required: 'A case reference is required for every search.',
    tooLong: 'The case reference may not be greater than 100 characters.',
    /**
     * The legal basis a search states itself, under the case control when the deployment requires a
     * basis (components/CaseFiling, lib/case-reference.ts).
     */
    searchBasis: {
      legend: 'Legal basis of this search',
      hint: 'What allows this search when its case has no legal basis, or when it is filed under no case. Kept on its audit rows and printed on its report.',
      none: 'None stated',
      noneUnderCase: "None stated: the case's legal basis applies",
      incomplete: 'not complete yet',
      show: 'State a legal basis',
      change: 'Change',
      hide: 'Hide',
      clear: 'Clear',
      clearLabel: 'Clear the legal basis of this search',
    },
    /** The case control beside every search form's submit button (components/CaseFiling). */
    filing: {
      label: 'Case this search is filed under',
      filedUnder: 'Filed under',
      none: 'Not filed under a case',
      newCase: 'new case',
      clear: 'No case',
      clearLabel: 'File this search under no case',
      pick: 'Your open cases',
      pickNone: 'None picked (type below)',
    },
  },
  /** The signed-in user's own records (not in the spec): /history. */
  history: {
    menuLink: 'Search history',
    eyebrow: 'Your account',
    title: 'Search history',
    lead: 'Your past lookups and the credits they used. Opening a stored result again costs nothing.',
    tabsLabel: 'Search history sections',
    lookupsTab: 'Lookups',
    statementTab: 'Credit statement',
    kindFilter: 'Kind',
    allKinds: 'All kinds',
    time: 'Time',
    kind: 'Kind',
    query: 'Query',
    cost: 'Cost',
    status: 'Status',
    result: 'Result',
    open: 'Open',
    openLabel: (query: string) => `Open the stored result of ${query}`,
    opening: 'Opening...',
    notKept: 'Not kept',
    cached: 'Cached',
    free: 'Free',
    statuses: {
      complete: 'Complete',
      no_record: 'No record',
      refunded: 'Refunded',
      pending: 'Pending',
    } as Record<string, string>,
    /** Beside a typed query that reads differently once normalized. */
    normalized: (query: string) => `matched as ${query}`,
    refunded: 'Refunded',
    count: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'lookup' : 'lookups'}`,
    empty: 'No lookups yet. Searches you run appear here.',
    emptyKind: 'No lookups of this kind.',
    purged: 'This result is no longer kept.',
    openFailed: 'The stored result could not be opened. Please try again.',
    storedResult: (kind: string, query: string) => `${kind}: ${query}`,
    storedAt: (when: string) => `Searched ${when}; reopened from your history at no cost.`,
    nothingStored: 'The stored result is empty.',
    leakPage: (page: number, shown: number, total: number, capped: boolean) =>
      `Page ${page.toLocaleString('en-US')} as it was found: ${shown.toLocaleString('en-US')} of ${capped ? 'more than ' : ''}${total.toLocaleString('en-US')} matching ${total === 1 && !capped ? 'record' : 'records'}.`,
    leakSearchAgain: 'Other pages are not kept: search again in the Leak Data Finder to browse them.',
    balance: 'Balance',
    change: 'Change',
    balanceAfter: 'Balance after',
    entry: 'Entry',
    reason: 'Reason',
    lookup: 'Lookup',
    entryKinds: { grant: 'Grant', charge: 'Charge', refund: 'Refund', adjustment: 'Adjustment' } as Record<
      string,
      string
    >,
    entryCount: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'entry' : 'entries'}`,
    yes: 'Yes',
    no: 'No',
    more: (n: number) => `+${n.toLocaleString('en-US')} more`,
    pagesOf: (list: string) => `${list} pages`,
    statementEmpty: 'No credit entries yet.',
    loadFailed: 'This list could not be loaded.',
    retry: 'Try again',
    pages: 'Pages',
    /** The kind filter and column: one label per search family (catalogue/kinds.ts). */
    kinds: searchFamilyLabels,
    exportCsv: 'Export CSV',
    exporting: 'Exporting...',
    exportFailed: 'The list could not be exported. Please try again.',
    /** The case and bulk-job filters, and a bulk job as one entry of the list. */
    caseFilter: 'Case',
    allCases: 'All cases',
    filtersLabel: 'Filters in use',
    filterCase: (reference: string) => `Case: ${reference}`,
    filterJob: (name: string) => `Bulk job: ${name}`,
    clearFilter: (what: string) => `Clear the filter ${what}`,
    clearFilters: 'Clear filters',
    emptyFiltered: 'No lookups match these filters.',
    bulkJob: 'Bulk lookup',
    jobRows: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`,
    showRows: 'Show rows',
    hideRows: 'Hide rows',
    showRowsLabel: (name: string) => `Show the rows of ${name}`,
    hideRowsLabel: (name: string) => `Hide the rows of ${name}`,
    onlyJob: 'Only this job',
    onlyJobLabel: (name: string) => `Show only the searches of ${name}`,
    jobRowsLabel: (name: string) => `Rows of ${name}`,
    jobRowsEmpty: 'No row of this job has run yet.',
  },
  /** The rows of a stored result exported as CSV (GET /api/history/{id}/export). */
  exports: {
    images: 'Images',
    active: 'Active',
    notActive: 'Not active',
    qualification: 'Qualification',
    position: 'Position',
    /** A merged value's corroboration column (the results page's marks). */
    corroboration: { corroborated: 'corroborated', conflict: 'in conflict', single: 'single source' },
    /** The CSV's `part` column of a phone or e-mail export. */
    parts: { merged: 'merged', source: 'source' },
    /** The `section` of a detail, corporate or verification record's own fields (its lists are tables). */
    details: 'Details',
    sheets: {
      about: 'About',
      merged: 'Merged profile',
      sources: 'Source records',
      records: 'Records',
      /** A username lookup's sites (found, blocked, failed, not checked). */
      sites: 'Sites',
    },
    /** What a leak export holds, said in its header ('note') and the JSON's `export.note`. */
    leakHolds: (held: number, matches: number, capped: boolean) =>
      capped
        ? `More than ${matches.toLocaleString('en-US')} records match; this file holds the first ${held.toLocaleString('en-US')}.`
        : `${matches.toLocaleString('en-US')} record${matches === 1 ? '' : 's'} match; this file holds ${matches === held ? (matches === 1 ? 'it' : `all ${held.toLocaleString('en-US')}`) : `the first ${held.toLocaleString('en-US')}`}.`,
  },
} as const;
