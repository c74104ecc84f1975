/** API keys and the public API (beyond the spec): the API keys page and the key's refusals. */
export const apiKeysTexts = {
  apiKeys: {
    title: 'API keys',
    navLabel: 'API keys',
    lead: 'Call the lookup API from your own scripts. Each key is limited to the scopes you tick, and every search it makes spends your credits and is written to the audit trail under the key’s name.',
    loadFailed: 'API keys could not be loaded.',
    createHeading: 'New key',
    name: 'Name',
    namePlaceholder: 'e.g. Case-intake script',
    nameRequired: 'Give the key a name.',
    scopes: 'Scopes',
    expiresAt: 'Expires on (optional)',
    monthlyCap: 'Monthly credit cap (optional)',
    monthlyCapHint:
      'Searches that would take the key past this many credits in a calendar month are refused.',
    create: 'Create key',
    created: 'The key was created.',
    shownOnceTitle: 'Your new API key',
    shownOnce: 'Copy this key now. You will not see it again: only a fingerprint of it is stored.',
    copyKey: 'Copy API key',
    done: 'I have copied it',
    listHeading: 'Your keys',
    empty: 'No API keys yet.',
    never: 'Never',
    noExpiry: 'No expiry',
    noCap: 'No cap',
    createdOn: 'Created',
    lastUsed: 'Last used',
    expires: 'Expires',
    spentThisMonth: 'This month',
    revoke: 'Revoke',
    revokeTitle: 'Revoke this key?',
    revokeConfirm: (name: string) => `Scripts using “${name}” stop working at once. This cannot be undone.`,
    revoked: 'The key was revoked.',
    statusRevoked: 'Revoked',
    statusExpired: 'Expired',
    statusActive: 'Active',
    cancel: 'Cancel',
    howToCall: 'How to call',
    howToCallLead:
      'Send the key as a bearer token. The whole API is described at /api/openapi.json (reference: /api/docs).',
    scopeLabels: {
      lookups: 'Lookups (phone, e-mail, RC, UPI, challan, sources, a lookup by id)',
      leaks: 'Leak Data Finder',
      intel: 'Corporate intelligence and identity verification',
      reports: 'Reports (PDF)',
      bulk: 'Bulk lookups',
    },
    // The server's answers.
    scopesRequired: 'Choose at least one scope.',
    tooMany: (max: number) => `You already have ${max} active API keys. Revoke one before creating another.`,
    expiryInPast: 'The expiry must be in the future.',
    expiryTooFar: (years: number) =>
      `The expiry must be within ${years} years. Make a new key when this one ends.`,
    routeNotForKeys:
      'This endpoint is not available to API keys. API keys reach only the lookup, leak, intel, report and bulk endpoints.',
    missingScope: (scope: string) => `This API key does not have the '${scope}' scope.`,
    rateLimited: (seconds: number) =>
      `Too many requests with this API key. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    capReached: (cap: number, spent: number) =>
      `This API key's monthly credit cap of ${cap} would be exceeded (${spent} spent this month). Nothing was charged.`,
  },
} as const;
