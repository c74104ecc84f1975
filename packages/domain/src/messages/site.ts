/** Texts of the whole site: brand, public pages, layouts, navigation and the generic errors. */
export const siteTexts = {
  brand: 'Footprint',
  taglines: {
    proactive: 'Proactive Intelligence: Uncover Threats, Secure the Future.',
    footprint: 'FIND YOUR DIGITAL FOOTPRINT',
  },
  notFound: {
    title: '404 - Page Not Found',
    image: 'A trail of footprints that ends at a magnifying glass with nothing found',
    body: "The page you are looking for doesn't exist or has been moved.",
  },
  upgrade: {
    title: 'Not Availabe for trial',
    body: 'This feature is only available for live users.',
    goToDashboard: 'Go to Dashboard',
  },
  pagination: {
    label: 'Pagination',
    previous: 'Previous',
    next: 'Next',
    page: (n: number) => `Page ${n}`,
  },
  footer: {
    rights: 'All rights reserved',
  },
  /** Sidebar of the signed-in layout, spec §2.4, in the spec's order. */
  mainNav: {
    emailSearch: 'Email Search',
    phoneSearch: 'Phone Search',
    usernameSearch: 'Username Search',
    leakFinder: 'Leak Data Finder',
    corporate: 'Corporate Intelligence',
    verifiedId: 'Verified ID',
    logout: 'Logout',
    help: 'Help',
  },
  /** Public (marketing and policy) pages, spec §2.1 and §9. */
  public: {
    nav: {
      home: 'HOME',
      login: 'LOGIN',
      who: 'WHO',
      privacy: 'PRIVACY',
      contact: 'CONTACT',
    },
    footerLinks: {
      support: 'Support',
      company: 'Company',
      terms: 'Terms',
      refund: 'Refund',
      verify: 'Verify a report',
      attributions: 'Attributions',
    },
    /** /attributions: the notices of the third-party works the product ships. */
    attributions: {
      title: 'Attributions',
      lead: 'Footprint ships works of others under their licences. Their notices and licence texts follow, as the server ships them.',
      catalogue: (sites: number, from: Record<string, number>) =>
        `The username lookup checks ${sites.toLocaleString('en-IN')} sites, a catalogue built from ${Object.entries(
          from,
        )
          .map(
            ([list, count]) =>
              `${count.toLocaleString('en-IN')} entries of the ${list[0]?.toUpperCase()}${list.slice(1)} list`,
          )
          .join(
            ' and ',
          )}: deduplicated, and without the sites a polite check of a public profile page cannot ask.`,
      licence: (name: string) => `${name} licence`,
      failed: 'The notices could not be loaded.',
      retry: 'Try again',
    },
    /** /verify: anyone checks a report file; the browser hashes it and only the hash is sent. */
    verify: {
      title: 'Verify a report',
      lead:
        'Check that a PDF report is exactly as Footprint generated it. Your browser computes the file’s ' +
        'SHA-256 fingerprint; only that fingerprint is sent to the server, never the file.',
      /** Holds 'Report file': the report check's name, as before captures were checked here too. */
      fileLabel: 'Report file, bundle or capture files',
      drop: 'Drop a report PDF, an evidence bundle or a capture here',
      choose: 'or choose a file (or the files of one capture)',
      hint: 'The file stays on this device.',
      hashing: 'Computing the fingerprint…',
      checking: 'Checking the fingerprint…',
      matches: (when: string) => `Matches: Footprint generated exactly this file, made on ${when}.`,
      noMatch:
        'No match: Footprint generated no report with exactly this content. The file may have been ' +
        'altered, or it was not made here.',
      fingerprint: 'SHA-256 fingerprint',
      file: 'File',
      tooLarge: 'This file is too large to be a Footprint report.',
      noCrypto:
        'This browser cannot compute the fingerprint on this page (it needs a secure https connection).',
      failed: 'The check could not be completed. Please try again.',
    },
    about: { title: 'ABOUT US' },
    contact: {
      title: 'CONTACT US',
      invite: 'Write to us for more information about our solutions or services.',
      email: 'support@footprint.test',
      website: 'https://footprint.test',
    },
    privacy: {
      title: 'Privacy Policy',
      sections: [
        'Information We Collect',
        'How We Use Information',
        'Data Protection',
        'Sharing of Information',
        'Your Rights',
        'Compliance',
        'Changes to This Policy',
        'Contact Us',
      ],
    },
    terms: { title: 'Terms & Conditions', owner: 'Footprint Intelligence LLP' },
    refund: {
      title: 'Refund Policy',
      noRefunds: 'No Returns or Refunds',
      nonTransferable: 'Non-Transferable',
      needHelp: 'Need Help',
    },
    notFoundBack: 'Back to Home',
    placeholder: {
      titles: {
        product: 'Product',
        pricing: 'Pricing',
        shipping: 'Shipping Policy',
        returns: 'Return Policy',
      },
      lead: 'Details for this page are provided on request. Please get in touch and our team will share the information that applies to your organisation.',
      contact: 'Contact us',
    },
  },
  /** Texts of the layouts every page sits in (not worded by the spec). */
  layout: {
    skipToContent: 'Skip to content',
    loading: 'Loading',
    mainNav: 'Main',
    footerNav: 'Footer',
    menu: 'Menu',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    /** Headings of the sidebar's groups of pages beyond the spec's items (which come first, unheaded). */
    navGroups: {
      work: 'Work',
      account: 'Account',
    },
    profileMenu: (name: string) => `Profile: ${name}`,
    opensInNewTab: ' (opens in a new tab)',
    /** A page whose code could not be loaded (a dropped connection, or a new version deployed meanwhile). */
    routeErrorTitle: 'This page could not be loaded',
    routeErrorLead:
      'The connection may have dropped, or Footprint was updated while this tab was open. Reloading fetches the current version; nothing you saved is lost.',
    reload: 'Reload',
    home: 'Go to the start page',
  },
  /** /help (spec §2.3 does not show its content). */
  helpPage: {
    title: 'Help',
    lead: (brand: string) => `A short guide to ${brand}.`,
    sections: [
      {
        title: 'Searching',
        body: [
          'Choose Phone Search or Email Search in the menu. For a phone number, pick the country code and enter the 10-digit number; for an e-mail, enter the full address.',
          'Tick the terms acknowledgement and submit. Results from every source are merged into one profile, which you can save as a PDF report.',
        ],
      },
      {
        title: 'Credits',
        body: [
          'Every lookup spends credits from your account. Your balance is always shown in the header and on the results page.',
          'When the balance runs out, searches are refused until credits are added. Contact support to top up your account.',
        ],
      },
      {
        title: 'Other tools',
        body: [
          'Leak Data Finder searches leaked records by name, e-mail, phone or username.',
          'Corporate Intelligence and Verified ID are available to live accounts; trial accounts are shown an upgrade notice.',
        ],
      },
      {
        title: 'Your account',
        body: [
          'Accounts are licensed to specific authorised personnel and cannot be shared or transferred.',
          'Signing in from a new device asks for a one-time code sent to your e-mail. Sessions end automatically when they expire.',
        ],
      },
    ],
    contactTitle: 'Contact support',
    contactBefore: 'Write to',
    contactAfter: 'for access, credits or anything else.',
    backToDashboard: 'Back to dashboard',
  },
  /** /subscription (spec §2.3 does not show the page). */
  comingSoon: {
    subscription: 'Subscription',
    module: 'This module',
    body: 'This module is being prepared and will be available in an upcoming release.',
  },
  errors: {
    generic: 'Something went wrong.',
    tooManyRequests: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
    csrfMismatch: 'CSRF token mismatch.',
    malformedJson: 'The request body is not valid JSON.',
    unsupportedMedia: 'Send the request body as application/json.',
    unauthenticated: 'Unauthenticated.',
    forbidden: 'This action is unauthorized.',
    notFound: 'Not found.',
    internal: 'Internal server error.',
    serviceUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
    validation: 'The given data was invalid.',
  },
} as const;
