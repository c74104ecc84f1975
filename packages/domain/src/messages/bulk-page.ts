const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The /bulk page (not in the spec): a list of phone numbers, e-mail addresses or usernames run as one job. */
export const bulkPageTexts = {
  bulkPage: {
    menuLink: 'Bulk lookups',
    eyebrow: 'Live accounts',
    title: 'Bulk lookups',
    lead: 'Run a list of phone numbers, e-mail addresses or usernames as one job. Each row is charged like a single lookup. Check the list first: nothing is charged until you start.',
    newTitle: 'New bulk lookup',
    typeLegend: 'The list holds',
    types: { tel: 'Phone numbers', email: 'E-mail addresses', username: 'Usernames' } as Record<
      string,
      string
    >,
    typeShort: { tel: 'Phone', email: 'E-mail', username: 'Username' } as Record<string, string>,
    sourceLegend: 'Where the list comes from',
    sourceFile: 'Upload a file',
    sourcePaste: 'Paste a list',
    fileLabel: 'CSV or XLSX file',
    fileHint: 'A CSV file or an Excel workbook (.xlsx) with one value per row. At most 10,000 rows.',
    dropHere: 'Drop a CSV or XLSX file here, or',
    chosenFile: (name: string, size: string) => `${name} (${size})`,
    wrongFileType: 'Choose a .csv or .xlsx file.',
    noFile: 'Choose a CSV or XLSX file first.',
    pasteLabel: 'List (one per line)',
    pasteHint: (type: string) =>
      type === 'email'
        ? 'One e-mail address per line.'
        : type === 'username'
          ? 'One username per line; a leading @ is dropped.'
          : 'One phone number per line; a number without a dial code is taken as Indian (+91).',
    pastePlaceholder: (type: string) =>
      type === 'email'
        ? 'e.g.\nfirst@example.com\nsecond@example.com'
        : type === 'username'
          ? 'e.g.\nrohand90\n@nobody.demo'
          : 'e.g.\n9876543210\n+91 91234 56780',
    pasteEmpty: 'Paste at least one value, one per line.',
    pastedLines: (n: number) => plural(n, 'line', 'lines'),
    check: 'Check list',
    checking: 'Checking...',
    checkFailed: 'The list could not be checked. Please try again.',
    previewTitle: 'What this list will do',
    rowsRead: 'Rows read',
    willRun: 'Will run',
    duplicates: 'Duplicates folded',
    invalidCount: 'Invalid rows',
    cost: 'Cost at most',
    balance: 'Your balance',
    credits: (n: number) => plural(n, 'credit', 'credits'),
    costNote: (perRow: number) =>
      `${plural(perRow, 'credit', 'credits')} per row; rows answered from the cache, and rows no source answers, cost nothing.`,
    overBalance: (cost: number, balance: number) =>
      `This list can cost ${plural(cost, 'credit', 'credits')} and your balance is ${plural(balance, 'credit', 'credits')}: the job will stop when your credits run out, and the rows it did not reach are skipped.`,
    nothingToRun: 'No row of this list is valid: there is nothing to run.',
    invalidTitle: 'Rows that will not run',
    invalidLine: 'Line',
    invalidValue: 'Value',
    invalidWhy: 'Why',
    invalidShowAll: (n: number) => `Show all ${count(n)} listed`,
    invalidMore: (n: number) => `and ${plural(n, 'more invalid row', 'more invalid rows')} not shown.`,
    start: 'Start',
    starting: 'Starting...',
    started: 'The bulk lookup has started.',
    /** Start's answer for a list of more rows than the admin's approval_bulk_rows: held, not started. */
    startedAwaiting:
      "The bulk lookup waits for a supervisor's approval: it runs once it is approved. Nothing is charged until then.",
    startFailed: 'The bulk lookup could not be started. Please try again.',
    /** The server's name of a job made from a pasted list (messages.bulkJobs.pastedList on its side). */
    pastedName: 'Pasted list',
    jobsTitle: 'Your bulk lookups',
    jobsEmpty: 'No bulk lookups yet. Check a list above and start it.',
    loadFailed: 'Your bulk lookups could not be loaded.',
    retry: 'Try again',
    created: 'Started',
    /** In place of 'Started' on a job that waits, or waited, for approval: it has not started. */
    requested: 'Requested',
    finished: 'Finished',
    statuses: {
      awaiting_approval: 'Awaiting approval',
      not_approved: 'Not approved',
      queued: 'Queued',
      running: 'Running',
      paused: 'Paused',
      done: 'Done',
      cancelled: 'Cancelled',
      stopped: 'Stopped',
    } as Record<string, string>,
    progressLabel: (name: string) => `Progress of ${name}`,
    progress: (done: number, total: number) => `${count(done)} / ${count(total)} rows`,
    charged: (n: number) => `${count(n)} charged`,
    failed: (n: number) => `${count(n)} failed`,
    spent: (n: number) => plural(n, 'credit spent', 'credits spent'),
    stopReason: 'Stopped:',
    /** On a job of status awaiting_approval, with a link to the requester's view of /approvals. */
    awaitingApproval:
      "This list is longer than a bulk lookup may run without approval, so it waits for a supervisor's approval before any row runs. Nothing is charged until then.",
    awaitingApprovalLink: 'See My requests',
    /** On a job of status not_approved. */
    notApproved: 'Its request for approval was rejected or expired: no row ran and nothing was charged.',
    notApprovedLink: 'See the decision',
    pause: 'Pause',
    resume: 'Resume',
    cancel: 'Cancel',
    actionLabel: (action: string, name: string) => `${action} ${name}`,
    cancelTitle: (name: string) => `Cancel ${name}?`,
    cancelBody:
      'The rows it has not reached are skipped and cost nothing; the rows already run stay in its results. A cancelled job cannot be resumed.',
    cancelConfirm: 'Cancel the job',
    actionFailed: 'The job could not be changed. Please try again.',
    download: 'Download results',
    downloadAs: (format: string) => `Download ${format.toUpperCase()}`,
    // The buttons' names start with their visible words (WCAG 2.5.3), then say which job.
    downloadLabel: (format: string, name: string) => `Download ${format.toUpperCase()}: results of ${name}`,
    downloadFailed: 'The results could not be downloaded. Please try again.',
    viewRows: 'View rows',
    hideRows: 'Hide rows',
    viewRowsLabel: (name: string) => `View rows of ${name}`,
    hideRowsLabel: (name: string) => `Hide rows of ${name}`,
    rowsTitle: (name: string) => `Rows of ${name}`,
    rowsCount: (n: number) => plural(n, 'row', 'rows'),
    rowsEmpty: 'This job has no rows.',
    rowsLoadFailed: 'The rows could not be loaded.',
    rowLine: 'Line',
    rowInput: 'Input',
    rowStatus: 'Status',
    rowName: 'Name',
    rowSources: 'Sources answered',
    /** A username row's columns: how many accounts its site check found, and the accounts as links. */
    rowFound: 'Found on',
    rowAccounts: 'Accounts',
    foundCount: (n: number) => plural(n, 'site', 'sites'),
    /** The fold under a username row's first accounts (a disclosure: it shows the rest). */
    accountsMore: (n: number) => `and ${count(n)} more`,
    rowResult: 'Result',
    rowOpen: 'Open',
    rowOpenLabel: (input: string) => `Open the full result of ${input}`,
    rowStatuses: {
      pending: 'Pending',
      success: 'Found',
      no_record: 'No record',
      cached: 'Cached',
      failed: 'Failed',
      insufficient_credits: 'No credits',
      skipped: 'Skipped',
    } as Record<string, string>,
    liveLost: 'Live updates were interrupted; checking every 2 seconds.',
    /** A bulk job's request for approval (kind bulk:<type>) on /approvals. */
    approval: {
      cost: (n: number) => `Up to ${plural(n, 'credit', 'credits')}`,
      costNote:
        'Each row is charged as it runs; rows answered from the cache, and rows no source answers, cost nothing.',
      approvedStatus: 'Approved',
      openJob: 'Open the bulk lookup',
      openJobLabel: (query: string) => `Open the bulk lookup ${query}`,
      approveLabel: (query: string) => `Approve the bulk lookup of ${query}`,
      rejectLabel: (query: string) => `Reject the bulk lookup of ${query}`,
      // The dialog's title and line are one line each: the query goes in the line, the rest below.
      approveTitle: 'Approve this bulk lookup?',
      approveLead: (query: string, credits: string) => `${query}: up to ${credits}`,
      approveBody:
        "Once approved, the job is queued at once and runs as the requester's: each row is charged to them as it runs.",
      rejectTitle: 'Reject this bulk lookup?',
      rejectLead: (query: string) => `${query}: no row runs, nothing is charged`,
      approved: 'Approved: their bulk lookup is queued.',
    },
  },
} as const;
