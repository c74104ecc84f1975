/** The Leak Data Finder (spec §2.6). */
export const leaksTexts = {
  leaks: {
    required: 'This field is required!',
    invalidName: 'Name must contain only letters.',
    invalidEmail: 'Invalid email format',
    invalidPhone: 'Invalid phone number',
    invalidUsername: 'Invalid username format',
    invalidInput: 'Please enter a valid input.',
    maxRows: 'You can only add 4 fields',
    failed: 'Something went wrong. Please try again.',
    noResults: 'No results found.',
    resultsFound: (n: number) => `${n} Results Found`,
    pageOf: (page: number, pages: number) => `Page ${page} of ${pages} pages.`,
    searching: 'Searching...',
    pastLastPage: (last: number) => `That page is past the last page of results (${last}).`,
    /** The screen's own texts (the spec gives none beyond the rules above). */
    lead: 'Search leaked and breached records by name, e-mail, phone or username. Add up to 4 fields to narrow the match.',
    addRow: 'Add field',
    removeRow: (n: number) => `Remove field ${n}`,
    rowType: (n: number) => `Field ${n} type`,
    rowValue: (n: number) => `Field ${n} value`,
    capped: (cap: number) =>
      `More than ${cap.toLocaleString('en-US')} matches: showing the first ${cap.toLocaleString('en-US')}. Narrow the search with another row.`,
    matchCount: (n: number, capped = false) =>
      `${n.toLocaleString('en-US')}${capped ? '+' : ''} matching ${n === 1 ? 'record' : 'records'}`,
    matchedOn: 'Matched on',
    breached: 'Breached',
    aboutBreach: 'About this breach',
    recordId: 'Record',
    cached: 'Already paid: no credit charged',
    /** The row type selector (spec §2.6) and its placeholder per type. */
    typeLabels: { name: 'Name', email: 'Email', phone: 'Phone', username: 'Username' },
    placeholders: {
      name: 'Enter full name (e.g. Rohan Deshmukh)',
      email: 'Enter email address',
      phone: 'Enter phone number (10–15 digits)',
      username: 'Enter username',
    },
    rowCount: (n: number, max: number) => `${n} of ${max} fields`,
    resultsPages: 'Leak results pages',
    cachedTitle: 'This search was already paid for recently',
    unknownSource: 'Unknown source',
    copyField: (label: string) => `Copy ${label.toLowerCase()}`,
    /** Federation: where each record was found, and how each origin answered the search. */
    foundIn: 'Found in',
    originsSearched: 'Sources searched',
    originStatus: {
      ok: (records: string) => records,
      not_found: 'none',
      rate_limited: 'rate limited',
      failed: 'unavailable',
      timed_out: 'timed out',
      unsupported: 'cannot search these fields',
    },
  },
} as const;
