/**
 * Unit credit pools (issue 34; not in the spec): the header's pool chip, the pool section of the units
 * screen (/admin/units and /units) and the pool rows of the credit statements.
 */
const n = (value: number) => value.toLocaleString('en-US');
const credits = (value: number) => `${n(value)} ${value === 1 ? 'credit' : 'credits'}`;

export const poolsTexts = {
  pools: {
    /** The header: what a search may still draw from the pool, of the monthly allowance. */
    chip: (available: number) => `Pool: ${n(available)}`,
    chipOf: (allowance: number) => ` of ${n(allowance)} this month`,
    chipTitle: (unit: string, used: number, allowance: number, balance: number) =>
      `Credit pool of ${unit}: ${n(used)} of ${n(allowance)} used this month; the pool holds ${credits(balance)}. Searches draw on it before your own credits.`,
    chipUnit: (unit: string) => ` (credit pool of ${unit})`,

    /** The credit statements: a row a pool paid (or that topped one up). */
    paidByPool: (unit: string) => `Paid by pool: ${unit}`,
    poolEntry: (unit: string) => `Pool: ${unit}`,
    poolBalance: 'pool',
    poolBalanceTitle: (unit: string) => `The balance of the credit pool of ${unit} after this entry`,

    /** /admin/units: the pool of the chosen unit. */
    title: 'Credit pool',
    lead: 'Members draw on the pool within their monthly allowance before their own credits.',
    balance: 'Pool balance',
    changeTitle: 'Top up or deduct',
    changeLead: 'A positive amount tops the pool up; a negative one deducts from it.',
    amountLabel: 'Amount',
    reasonLabel: 'Reason',
    apply: 'Apply',
    applying: 'Applying…',
    changed: (unit: string, balance: number) => `The pool of ${unit} now holds ${credits(balance)}.`,
    allowanceColumn: 'Allowance / month',
    usedColumn: 'Used this month',
    allowanceOf: (name: string) => `Monthly allowance of ${name}`,
    saveAllowance: 'Set',
    saveAllowanceOf: (name: string) => `Set the monthly allowance of ${name}`,
    allowanceSaved: (name: string, allowance: number) =>
      `${name} may now draw ${credits(allowance)} a month from the pool.`,
    allowanceNotNumber: 'The monthly allowance field must be a whole number of credits.',
    amountNotNumber: 'The amount field must be a whole number of credits.',
    statementTitle: 'Pool statement',
    memberFilter: 'Member',
    allMembers: 'All members',
    statementEmpty: 'No pool entries yet.',
    statementFor: (name: string) => `Entries of ${name}`,
    /** The pool statement's column naming whose search a row charged or refunded (a top-up: nobody). */
    whoColumn: 'Searched by',
    whoNobody: '—',
    notReadable: 'The credit pool of this unit is read by admins, its unit admins and its supervisors.',
    loadFailed: 'The credit pool could not be loaded.',
  },
} as const;
