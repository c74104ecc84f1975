/** What the bulk lookup API (/api/bulk) answers: its refusals and the reasons a job stopped. */
export const bulkJobTexts = {
  bulkJobs: {
    notAwaiting:
      'The bulk lookup no longer waits for approval (its owner cancelled it): it was not run, and nothing was charged.',
    noValidRow: (type: 'tel' | 'email' | 'username') =>
      `The list holds no valid ${{ tel: 'phone number', email: 'e-mail address', username: 'username' }[type]}: nothing was run.`,
    tooManyRows: (max: number) => `A bulk lookup takes at most ${max.toLocaleString('en')} rows.`,
    noFile: 'Attach a CSV or XLSX file in the file field, or send the values as JSON.',
    unreadableFile: 'The file could not be read: send a CSV (UTF-8) or an XLSX workbook.',
    fileTooLarge: (megabytes: number) => `The file is larger than ${megabytes} MB.`,
    workbookTooLarge: (megabytes: number) =>
      `The workbook unpacks to more than ${megabytes} MB: send the list alone, or as a CSV.`,
    workbookTooManyParts: (max: number) =>
      `The workbook holds more than ${max.toLocaleString('en')} parts: send the list alone, or as a CSV.`,
    cellTooLong: (max: number) =>
      `A cell of the file holds more than ${max.toLocaleString('en')} characters: send one value a cell.`,
    busy: (seconds: number) =>
      `Too many lists are being read right now. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    typeRequired: 'The type field must be tel, email or username.',
    unknownField: (field: string) => `The ${field} field is not allowed.`,
    creditsRanOut: (skipped: number) =>
      `Credits ran out: ${skipped.toLocaleString('en')} row${skipped === 1 ? ' was' : 's were'} not run.`,
    accountNotLive: 'The account is no longer a live account: the remaining rows were not run.',
    illegalTransition: (action: string, status: string) => `A ${status} bulk lookup cannot be ${action}.`,
    pastedList: 'Pasted list',
  },
} as const;
