import { PROFILE_LABELS, type ProfileLabelKey, SOURCE_LABELS } from '../catalogue/sources.ts';
import { DETAIL_FACTS, DETAIL_FAMILIES, type DetailFamily } from '../kinds/details.ts';

/**
 * Source labels beside each profile value, by key ('gov' → 'Gov'). Spec §3 names the first seven
 * ('Account Provider' is its web-account-provider label); the texts are the catalogue's.
 */
const profileLabelTexts = Object.fromEntries(
  Object.entries(PROFILE_LABELS).map(([key, { text }]) => [key, text]),
) as { readonly [K in ProfileLabelKey]: (typeof PROFILE_LABELS)[K]['text'] };

/** The phone and e-mail search, its results, the detail modals and the reports (spec §2.3 to §2.5, §3). */
export const lookupTexts = {
  credits: {
    label: (n: number | string) => `Credits: ${n}`,
    insufficient: 'Insufficient credits.',
    insufficientUpgrade: 'Insufficient credits. Please upgrade your plan.',
    /** A 402 for a member of a unit pool: which of the pool and their allowance ran out (issue 34). */
    poolRanOut: (unit: string, left: number, own: number) =>
      `Insufficient credits. The credit pool of ${unit} has run out (${left} left) and your own balance (${own}) does not cover this search.`,
    allowanceRanOut: (unit: string, used: number, allowance: number, own: number) =>
      `Insufficient credits. Your monthly allowance from ${unit} is used up (${used} of ${allowance} this month) and your own balance (${own}) does not cover this search.`,
  },
  search: {
    invalidEmail: 'Please enter a valid email address',
    invalidPhone: 'Please enter a valid phone number',
    invalidUsername:
      'Please enter a valid username: 1 to 64 letters, digits, dots, hyphens or underscores, without spaces.',
    /** Under the phone field when the number is not valid: what one is (the field drops anything else). */
    phoneRule: (dialCode: string) =>
      `A phone number is 10 digits, such as 98765 43210, with or without +${dialCode} in front.`,
    acceptTerms: 'Please accept the terms before submitting',
    searching: 'Searching...',
    termsLink: 'Terms of Services, Policies',
    noResultsButton: 'Start a new search',
    somethingWrong: 'Something went wrong.',
    /** The terms acknowledgement around the link (spec §2.3 gives only the link text). */
    termsBefore: 'I confirm this search is part of an authorised investigation and I accept the',
    termsAfter: '.',
    typePhone: 'Phone',
    typeEmail: 'Email',
    typeUsername: 'Username',
    submit: 'Search',
    phonePlaceholder: '10-digit number',
    emailPlaceholder: 'Enter email address',
    usernamePlaceholder: 'e.g. rohand90',
    typeLegend: 'Search by',
    phoneLabel: 'Phone number',
    emailLabel: 'Email address',
    usernameLabel: 'Username',
    /** Under the username field when the name is not valid: what one is. */
    usernameRule:
      'A username is 1 to 64 letters, digits, dots, hyphens or underscores, with no spaces; a leading @ is fine.',
    /** Under the username field: what the search does and how long it takes. */
    usernameHint:
      'Checks the name on every site of the catalogue; this can take up to a minute. A leading @ is dropped.',
    /** The overlay of a username search: the sites are asked one by one, politely. */
    searchingUsername: 'Searching... Checking the sites can take up to a minute.',
  },
  /** The country-code picker of the search screen (spec §2.4). */
  countryPicker: {
    button: (name: string, dialCode: string) => `Country code: ${name} +${dialCode}`,
    filterLabel: 'Search country or dial code',
    filterPlaceholder: 'Search country or code',
    listLabel: 'Countries',
    selected: '(selected)',
  },
  results: {
    aiReport: 'AI Report',
    saveResults: 'Save Results',
    /** The menu of pages that have no PDF (leak, corporate, verification): not the spec's 'Save Results'. */
    exportResults: 'Export',
    saveAsPdf: 'Save as pdf',
    saveAsCsv: 'Save as CSV',
    saveAsJson: 'Save as JSON',
    saveAsXlsx: 'Save as Excel (XLSX)',
    /** Under the leak page's export items: the files hold every match, not the page on screen. */
    leakExportHint: (total: number, capped: boolean, cap: number) =>
      capped || total > cap
        ? `Files hold the first ${cap.toLocaleString('en-US')} matches of ${capped ? `more than ${total.toLocaleString('en-US')}` : total.toLocaleString('en-US')}, not only this page.`
        : `Files hold all ${total.toLocaleString('en-US')} match${total === 1 ? '' : 'es'}, not only this page.`,
    saveFailed: 'The file could not be saved. Please try again.',
    newSearch: 'New Search',
    copied: 'Copied!',
    markedAsSpam: 'Marked as Spam',
    whatsappBusiness: 'Whatsapp Business Account',
    phoneImsi: 'Phone IMSI',
    phoneStatus: 'Phone Status',
    foundBreaches: 'Found breaches',
    locations: 'Locations',
    unknownUser: 'Unknown User',
    additionalInformation: 'Additional Information',
    internetPresence: 'Internet Presence',
    active: 'Active',
    inactive: 'Inactive',
    /** A highlight whose source did not answer: nothing is known, which is not 'No'. */
    notKnown: 'Not known',
    noResults: 'No results found',
    facebookProfile: 'Facebook profile',
    showMap: 'Show map',
    profileSummary: 'Profile summary',
    records: 'Records',
    generatingReport: 'Generating PDF...',
    /** The page's own texts around the spec's. */
    phoneLookup: 'Phone lookup',
    emailLookup: 'Email lookup',
    usernameLookup: 'Username lookup',
    generating: 'Generating...',
    copySearched: 'Copy searched value',
    cachedAnswer: 'Cached answer',
    cachedTitle: 'Served from the lookup cache, not asked again upstream',
    searchedFor: 'for',
    overview: 'Overview',
    yes: 'Yes',
    corroboratedBy: 'Corroborated by',
    reportedBy: 'Reported by',
    activeOn: 'active on ',
    profileImages: 'Profile images',
    openImage: (n: number, source: string) => `Open full-size image ${n} (${source})`,
    imageTitle: (name: string, n: number, total: number) => `${name} — image ${n} of ${total}`,
    imageAlt: (name: string, n: number, source: string) => `${name}, image ${n} from ${source}`,
    previousImage: 'Previous',
    nextImage: 'Next',
    recordImage: (name: string, n: number) => `${name}, record ${n}`,
    phone: 'Phone',
    email: 'Email',
    name: 'Name',
    accountProviderTitle: 'Account Provider profile',
    accountPicture: (name?: string) => (name ? `${name}, account picture` : 'Account picture'),
    personId: 'Person ID',
    copyPersonId: 'Copy person ID',
    lastUpdated: 'Last updated',
    mapsReviews: 'Maps reviews',
    avatarServiceTitle: 'Avatar service',
    avatarFound: (found: number, total: number) => `${found} of ${total} found`,
    avatarAlt: (source: string) => `${source} avatar`,
    unknownSource: 'Unknown',
    found: 'Found',
    notFound: 'Not found',
    unnamedBreach: 'Unnamed breach',
    breachDate: 'Breach date',
    accounts: 'Accounts',
    dataExposed: 'Data exposed:',
    loadingMap: 'Loading map',
    rating: 'Rating ',
    coordinates: 'Coordinates ',
    mapLabel: (n: number) => `Map of ${n} reviewed place${n === 1 ? '' : 's'}`,
    mapNoTiles: 'No base map configured',
    place: (n: number) => `Place ${n}`,
    challanOf: (n: number, total: number) => `Challan ${n} of ${total}`,
    fetching: (title: string) => `Fetching ${title}`,
    /** The merged profile, its evidence and the filter (docs/capabilities.md, 'Merged profile'). */
    mergedProfile: 'Merged profile',
    mergedSummary: (facts: number, corroborated: number, conflicts: number) =>
      `${facts} fact${facts === 1 ? '' : 's'} · ${corroborated} corroborated${conflicts > 0 ? ` · ${conflicts} in conflict` : ''}`,
    corroborated: 'Corroborated',
    corroboratedTitle: 'Given by two or more independent sources',
    conflict: 'Conflict',
    conflictTitle: 'Sources disagree on this single-valued fact',
    sourcesDisagree: 'Sources disagree',
    confidence: (percent: number) => `${percent}%`,
    confidenceLabel: (percent: number) => `confidence ${percent} percent`,
    showProvenance: (value: string, sources: string) => `Where ${value} comes from: ${sources}`,
    provenanceHeading: 'Where it comes from',
    live: 'Live',
    sandbox: 'Sandbox',
    answeredAt: (when: string) => `answered ${when}`,
    via: (source: string) => `via ${source}`,
    moreDetails: 'More details',
    timeline: 'Timeline',
    nextSteps: 'Lawful next steps',
    sourceRecords: 'Source records',
    sourceRecordsHint: 'Every value as each source gave it, before folding',
    valuesBySource: 'Values by source',
    filterLabel: 'Filter the results',
    filterPlaceholder: 'Filter: name, number, source…',
    nothingMatches: (query: string) => `Nothing matches ‘${query}’`,
    clearFilter: 'Clear filter',
    matchesCount: (n: number) => `${n} match${n === 1 ? '' : 'es'}`,
  },
  /** The merged profile of the results page: spec §2.5 section titles, §3 identity proof and source labels. */
  profile: {
    sections: {
      names: 'Full Names and Alias',
      usernames: 'Usernames',
      phones: 'Phone Numbers',
      emails: 'Emails',
      basicInfo: 'Basic Info',
      bankDetails: 'Bank Details',
      upiIds: 'Upi Ids',
      identityProofs: 'Identity Proofs',
      verifiedAddresses: 'Verified Address',
      locations: 'Locations',
      countryCodes: 'Country Codes',
      carriers: 'Carriers',
      jobProfiles: 'Job Profiles',
      rcNumbers: 'RC Numbers',
      lastUpdated: 'Last Updated',
      qualifications: 'Qualifications',
      experience: 'Experience',
      skills: 'Skills',
      internetPresence: 'Internet Presence',
    },
    identityProofs: {
      pan_number: 'PAN Number',
      aadhaar_number: 'Aadhaar',
      voter_id: 'Voter ID',
      passport_number: 'Passport Number',
      driving_license: 'Driving License Number',
      ration_card: 'Ration Card Number',
    },
    /**
     * Source labels beside each value. Spec §3 names the first seven ('Account Provider' is its
     * web-account-provider label); the rest name the sources the spec lists without a label.
     */
    sources: profileLabelTexts,
    /** Failed sources named by their answer key, in the words an investigator uses (catalogue/sources.ts). */
    failedSources: SOURCE_LABELS,
    sourcePrefix: 'Source: ',
  },
  /**
   * What became of each source of an answer, and which searches this deployment answers: the results
   * page's source panel, the lookup PDF's 'Sources' section and the search screens all say it in these
   * words (lookup/source-status.ts builds the lines).
   */
  sources: {
    heading: 'Sources',
    /** One word or two per state, capitalised: the list's status column. */
    states: {
      ok: 'Answered',
      not_found: 'Not found',
      not_configured: 'Not configured',
      rate_limited: 'Rate limited',
      failed: 'Failed',
      timed_out: 'Timed out',
    },
    /**
     * The server's message for a source without a payload when nothing more specific is known (the
     * runner's words; a server test keeps the two equal). A message equal to its state's is not repeated.
     */
    stateMessages: {
      not_found: 'No record found.',
      not_configured: 'Not configured in this deployment.',
      rate_limited: 'Source is rate limited; try again later.',
      failed: 'Source failed to answer.',
      timed_out: 'Source did not answer in time.',
    },
    /** The server's message for a failed source whose calls are paused after repeated failures. */
    pausedMessage: 'Source temporarily unavailable.',
    modes: {
      live: 'Live',
      sandbox: 'Sandbox (synthetic data)',
      not_configured: 'No vendor configured',
    },
    liveVendor: (vendor: string) => `Live: ${vendor}`,
    answered: (answered: number, total: number) =>
      `${answered} of ${total} source${total === 1 ? '' : 's'} answered`,
    /** One part of the summary after the answered count, e.g. '2 not configured'. */
    part: (count: number, state: string) => `${count} ${state.toLowerCase()}`,
    /** The columns of the list (web) and of the PDF table. */
    columns: { source: 'Source', status: 'Status', answeredBy: 'Answered by' },
    derived:
      'This lookup was stored before per-source status was recorded: the states are read from its stored answer.',
    none: 'No source status was recorded for this lookup.',
    /** A phone or e-mail lookup ('Phone', 'Email') the deployment has no source for. */
    lookupUnavailable: (label: string) =>
      `${label} lookups are not available in this deployment (no source configured).`,
    /** Any other search the deployment has no source for, by its type label ('RC', 'GSTIN Details'). */
    searchUnavailable: (label: string) =>
      `${label} searches are not available in this deployment (no source configured).`,
    /** A type in a selector that the deployment cannot answer. */
    unavailableOption: (label: string) => `${label} (not available)`,
  },
  /** The detail modals. Each kind's own words are in its declaration (kinds/details.ts). */
  details: {
    rcTitle: DETAIL_FACTS.rc.title,
    upiTitle: DETAIL_FACTS.upi.title,
    challanTitle: DETAIL_FACTS.challan.title,
    challanSummary: DETAIL_FACTS.challan.list.title,
    noData: (type: string) => `⚠ No ${type} data available.`,
    /** Under it, when the source answered that it holds no record: the charging rule's promise. */
    noRecordFree: 'The source holds no record of it. No credits were charged.',
    /** The {TYPE} of the line above, per lookup. */
    typeNames: Object.fromEntries(DETAIL_FAMILIES.map((kind) => [kind, DETAIL_FACTS[kind].label])) as Record<
      DetailFamily,
      string
    >,
    downloadPdf: 'Download pdf',
    close: 'Close',
    rcFailed: DETAIL_FACTS.rc.failed,
    upiFailed: DETAIL_FACTS.upi.failed,
    challanFailed: DETAIL_FACTS.challan.failed,
    noChallans: DETAIL_FACTS.challan.list.empty,
  },
  reports: {
    failed: 'Error generating report. Please try again.',
    aiFailed: 'Error generating AI report. Please try again.',
  },
  /** When an answer's sources answered, whether it was reused, and the fresh lookup on request. */
  answerTime: {
    answered: (time: string) => `Answered ${time}`,
    answeredReused: (time: string) => `Answered ${time}, reused`,
    /** The case reference of the paid lookup a reused answer replays. */
    reusedCase: (reference: string | null) =>
      reference ? `Case reference ${reference}` : 'No case reference',
    answeredTitle: (iso: string) => `The sources answered at ${iso}.`,
    reusedTitle: (lookupId: string, iso: string) =>
      `Reused from lookup ${lookupId}, whose sources answered at ${iso}. The sources were not asked again and no credit was charged.`,
    refresh: 'Refresh',
    refreshLabel: 'Refresh: ask the sources again',
    refreshing: 'Refreshing...',
    confirmTitle: 'Refresh this answer?',
    confirmBody: (price: number | null) =>
      price === null
        ? 'A fresh lookup asks every source again and is charged at the price of a new search.'
        : `A fresh lookup asks every source again and costs ${price === 1 ? '1 credit' : `${price} credits`}.`,
    confirm: (price: number | null) =>
      price === null ? 'Refresh' : `Refresh for ${price === 1 ? '1 credit' : `${price} credits`}`,
    cancel: 'Cancel',
    failed: 'The fresh lookup failed; the answer shown is unchanged.',
  },
  /** The username lookup's results: the site check, site by site. */
  usernameResults: {
    summary: 'Site check',
    states: {
      found: 'Found',
      not_found: 'Not found',
      blocked: 'Blocked',
      error: 'Error',
      not_checked: 'Not checked',
    },
    /** What each state means, beside its count. */
    stateHints: {
      found: 'The site’s own page says the account exists',
      not_found: 'The site says there is no such account',
      blocked: 'A challenge, WAF, login wall or rate limit: the site would not say',
      error: 'Unreachable, timed out or an answer the check does not cover',
      not_checked: 'Not asked: the site’s check is failing, or it does not allow this name',
    },
    checkedOf: (asked: number, sites: number) =>
      `${asked.toLocaleString('en-US')} of ${sites.toLocaleString('en-US')} sites in the catalogue checked`,
    /** When many of the sites asked would not say (blocked or failed): the check is partial. */
    partial: (unanswered: number, asked: number) =>
      `A partial check: ${unanswered.toLocaleString('en-US')} of the ${asked.toLocaleString('en-US')} sites asked (${Math.round((unanswered / asked) * 100)} %) were blocked or failed and said nothing either way. Where the name matters, look at those by hand or search again later.`,
    sameName:
      'An account under this name is a lead, not proof: the same name may belong to someone else. Open the profile and compare before relying on it.',
    foundTitle: 'Accounts found',
    foundListLabel: (n: number) => `${n.toLocaleString('en-US')} account${n === 1 ? '' : 's'} found`,
    filterLabel: 'Filter the sites',
    filterPlaceholder: 'Filter: site, category, reason…',
    shownOf: (shown: number, total: number) => `${shown} of ${total} shown`,
    india: 'India',
    indiaTitle: 'A site that matters in India',
    checkedAt: (time: string) => `checked ${time}`,
    evidence: 'Evidence',
    evidenceOf: (site: string) => `Evidence of ${site}`,
    hideEvidence: 'Hide evidence',
    finalUrl: 'Final URL',
    httpStatus: 'HTTP status',
    pageTitle: 'Page title',
    noTitle: '(no title)',
    sha256: 'SHA-256',
    copySha256: (site: string) => `Copy the SHA-256 of ${site}`,
    bytes: 'Bytes read',
    answeredAt: 'Answered at',
    noEvidence: 'No evidence was kept for this site.',
    unaskedTitle: 'Sites that could not say',
    unaskedLead:
      'These sites gave no answer either way: the name may or may not be there. Open a profile address to check it by hand.',
    groupTitle: {
      blocked: 'Blocked',
      error: 'Errors',
      not_checked: 'Not checked',
    },
    reasonSites: (reason: string, n: number) => `${reason} (${n.toLocaleString('en-US')})`,
    noReason: 'No reason given',
    noneFoundTitle: 'No account found',
    noneFoundBody: (no: number, unasked: number) =>
      `${no.toLocaleString('en-US')} site${no === 1 ? '' : 's'} said there is no such account` +
      (unasked > 0
        ? `; ${unasked.toLocaleString('en-US')} could not be asked or would not say, so the name may still be on those.`
        : '.'),
    noneFoundFree: 'A name found nowhere is not charged.',
    /** A vendor's account search (`pseudonymData`), beside or instead of the site check. */
    vendorTitle: 'Found by an account search',
    vendorLead: (vendor: string) =>
      `Reported by ${vendor}’s account search, as the vendor gave them: Footprint did not open these pages and keeps no evidence of them.`,
    vendorIncomplete:
      'The search had not finished when the lookup’s time ran out: these are the accounts reported by then.',
    vendorListLabel: (n: number, vendor: string) =>
      `${n.toLocaleString('en-US')} account${n === 1 ? '' : 's'} reported by ${vendor}`,
    vendorNoName: 'No username given',
    vendorNoLink: 'No profile address given',
    vendorReportedAt: (time: string) => `reported ${time}`,
  },
} as const;
