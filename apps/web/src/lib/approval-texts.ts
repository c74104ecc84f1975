/**
 * The words of the approval of sensitive searches in the web app: the notice of a held search, the
 * /approvals page and its two admin settings. Kept here until the domain's messages take them (the
 * server's own words, approvalsMessages and APPROVAL_STATUS_LABELS, come from @footprint/domain).
 */
const n = (value: number) => value.toLocaleString('en-US');

export const approvalTexts = {
  /** The notice of a search held for approval (the 202 of any paid search). */
  heldTitle: "Waiting for your supervisor's approval",
  heldLink: 'See My requests',

  /** The navigation entry and the page. */
  menuLink: 'Approvals',
  eyebrow: 'Accountability',
  title: 'Approvals',
  lead: "Sensitive searches, and bulk lookups of many rows, wait here for a supervisor's decision before they run. Nothing is charged until one is approved.",
  tabsLabel: 'Requests',
  toDecideTab: 'To decide',
  toDecideLead:
    'Requests from the people you supervise. Approve one to run the search as theirs (charged to them), or reject it with a reason.',
  emptyToDecide: 'Nothing waits for your decision.',
  notSupervisor:
    'You supervise nobody, so no request waits for you. Your own requests are under My requests.',
  waitingHeading: 'Waiting for your decision',
  decidedHeading: 'Decided',
  emptyDecided: 'No request has been decided yet.',
  mineTab: 'My requests',
  mineLead:
    'Your searches of a sensitive kind, and your bulk lookups of many rows, held until a supervisor of yours decides them.',
  emptyMine: 'You have asked for no search that needs approval.',
  loadFailed: 'The requests could not be loaded.',
  retry: 'Try again',
  count: (count: number) => `${n(count)} ${count === 1 ? 'request' : 'requests'}`,

  /** A request's facts. */
  requester: 'Requested by',
  requestedAt: 'Requested',
  expiresAt: 'Expires',
  caseReference: 'Case reference',
  noCase: 'None',
  legalBasis: 'Legal basis',
  noLegalBasis: 'None stated',
  cost: 'Cost if approved',
  credits: (count: number) => `${n(count)} ${count === 1 ? 'credit' : 'credits'}`,
  decidedBy: (name: string, at: string) => `by ${name}, ${at}`,
  decidedAt: (at: string) => at,
  note: 'Note',
  reason: 'Reason',
  failure: 'Why it could not run',
  openResult: 'Open the result',
  openResultLabel: (query: string) => `Open the result of ${query}`,

  /** Deciding. */
  approve: 'Approve',
  approveLabel: (query: string) => `Approve the search of ${query}`,
  reject: 'Reject…',
  rejectLabel: (query: string) => `Reject the search of ${query}`,
  approveTitle: (query: string) => `Approve the search of ${query}?`,
  approveLead: (credits: string) =>
    `The search runs at once as the requester's, and is charged to them (${credits}).`,
  approveNoteLabel: 'Note (optional)',
  approveSend: 'Approve and run',
  rejectTitle: (query: string) => `Reject the search of ${query}?`,
  rejectLead: 'Nothing is run or charged. The requester reads your reason.',
  reasonLabel: 'Reason',
  reasonHint: 'Required. Say why the search may not run.',
  rejectSend: 'Reject request',
  saving: 'Saving…',
  cancel: 'Cancel',
  approved: 'Approved: the search ran as theirs.',
  approvedFailed: 'Approved, but the search could not run.',
  rejected: 'Rejected: the requester is told why.',
  saveFailed: 'The decision could not be saved.',

  /** /admin/settings. */
  settingsKinds: "Searches that need a supervisor's approval",
  settingsKindsHint:
    'A search of a ticked kind is held until a supervisor of the requester approves it; nothing is charged until then.',
  settingsLookupsGroup: 'Phone, e-mail and details',
  settingsHours: 'Approval requests expire after (hours)',
  settingsHoursHint: (max: number) => `From 1 to ${n(max)} hours. An undecided request expires then.`,
} as const;
