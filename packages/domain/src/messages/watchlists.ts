/** The watchlist (not in the spec): /watchlist, the Watch button of the results pages and its e-mails. */
export const watchlistTexts = {
  watchlist: {
    menuLink: 'Watchlist',
    eyebrow: 'Monitoring',
    title: 'Watchlist',
    lead: 'Watched searches run again on their schedule, each run charged like a lookup. When something changes you get an e-mail and an entry here.',
    empty: 'Nothing watched yet. Open a phone, e-mail, username or leak result and choose Watch.',
    kinds: { tel: 'Phone', email: 'E-mail', username: 'Username', leak: 'Leak search' } as Record<
      string,
      string
    >,
    /** A watch of a kind the admin made wait for a supervisor's approval (approval_kinds) would skip it. */
    needsApproval: (kind: string) =>
      `${kind} searches wait for a supervisor's approval on this deployment, so they cannot run on a schedule: ask for each search instead. Nothing was changed.`,
    schedules: { daily: 'Daily', weekly: 'Weekly' } as Record<string, string>,
    statuses: { active: 'Active', paused: 'Paused', stopped_no_credits: 'Stopped: out of credits' } as Record<
      string,
      string
    >,
    query: 'Query',
    kind: 'Kind',
    schedule: 'Schedule',
    status: 'Status',
    lastRun: 'Last run',
    nextRun: 'Next run',
    changes: 'Changes',
    never: 'Not yet',
    pause: 'Pause',
    resume: 'Resume',
    runNow: 'Run now',
    remove: 'Delete',
    removeConfirm: 'Stop watching this query? Its change history is deleted too.',
    events: 'What changed',
    noEvents: 'No change seen yet. The first run records what the search finds; later runs compare with it.',
    openResult: 'Open result',
    added: 'New',
    removed: 'Gone',
    totalMoved: (before: number, after: number) => `Matching records: ${before} → ${after}`,
    /** A watched username's account on one site, as a change reads in the e-mail ('New account: GitHub'). */
    accountAdded: (site: string) => `New account: ${site}`,
    accountRemoved: (site: string) => `Account no longer found: ${site}`,
    factTypes: {
      name: 'Name',
      email: 'E-mail',
      phone: 'Phone',
      address: 'Address',
      username: 'Username',
      account: 'Account',
      breach: 'Breach',
      record: 'Leak record',
      source: 'Source with a record',
    } as Record<string, string>,
    outcomes: {
      baseline: 'First run: what the search finds now is recorded; later runs compare with it.',
      changed: 'Something changed: see below.',
      unchanged: 'Run done: nothing changed.',
      no_source: 'No source answered: the run was refunded and is not compared.',
      stopped_no_credits: 'Not enough credits: the watch is stopped. Top up, then resume it.',
      failed: 'The run failed. It will be tried again at the next scheduled time.',
    } as Record<string, string>,
    stoppedNotice: 'Stopped because your credits ran out. Top up, then resume.',
    updated: 'Watch updated.',
    deleted: 'Watch deleted.',
    failed: 'Could not change the watch. Please try again.',
    // The Watch button of the results pages
    watch: 'Watch',
    watchTitle: 'Watch this search',
    watchLead:
      'Runs this search again on a schedule, each run charged like a lookup, and e-mails you when its results change.',
    pickSchedule: 'How often',
    watchRun: 'Start watching',
    watching: 'Watching. See it on your watchlist.',
    openWatchlist: 'Open watchlist',
    // Server refusals
    notFound: 'Watch not found.',
    duplicate: 'This query is already watched.',
    tooMany: (max: number) => `You can keep at most ${max} watches. Delete one to watch another.`,
    nothingToChange: 'Give a schedule or a status to change.',
    kindInvalid: 'The kind field must be tel, email, username or leak.',
    scheduleInvalid: 'The schedule must be daily or weekly.',
    statusInvalid: 'The status must be active or paused.',
  },
} as const;
