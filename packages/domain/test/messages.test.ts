import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  corporateTypes,
  IDENTITY_PROOF_LABELS,
  LEAK_FIELD_LABELS,
  LEAK_FIELD_TYPES,
  messages,
  PROFILE_SECTIONS,
  verificationTypes,
} from '../src/index.ts';

/**
 * Every user-visible text the requirements fix (docs/spec-conformance.md, §2 to §9), each compared
 * with the expected wording typed out here, so a typo in messages.ts fails here. Texts with a placeholder
 * ({n}, {email}, {TYPE}, {label}, mm:ss, X of Y) are checked with a sample value put in its place.
 * The spec's own spellings ('Not Availabe for trial', 'something went Wrong', 'Identity Verified Result :')
 * are kept on purpose.
 */

type Row = [where: string, actual: unknown, fromSpec: string];

const check = (rows: Row[]) =>
  it.each(rows)('%s: %j', (_where, actual, fromSpec) => {
    expect(actual).toBe(fromSpec);
  });

describe('§1 taglines', () => {
  check([
    ['tagline', messages.taglines.proactive, 'Proactive Intelligence: Uncover Threats, Secure the Future.'],
    ['tagline', messages.taglines.footprint, 'FIND YOUR DIGITAL FOOTPRINT'],
  ]);
});

describe('§2.1 public routes', () => {
  check([
    ['side navigation', messages.public.nav.home, 'HOME'],
    ['side navigation', messages.public.nav.login, 'LOGIN'],
    ['side navigation', messages.public.nav.who, 'WHO'],
    ['side navigation', messages.public.nav.privacy, 'PRIVACY'],
    ['side navigation', messages.public.nav.contact, 'CONTACT'],
    ['footer link /contact-us', messages.public.footerLinks.support, 'Support'],
    ['footer link /about', messages.public.footerLinks.company, 'Company'],
    ['footer link /terms-conditions', messages.public.footerLinks.terms, 'Terms'],
    ['footer link /refund-policy', messages.public.footerLinks.refund, 'Refund'],
    ['/about', messages.public.about.title, 'ABOUT US'],
    ['/contact-us', messages.public.contact.title, 'CONTACT US'],
    ['/refund-policy heading', messages.public.refund.title, 'Refund Policy'],
    ['/refund-policy heading', messages.public.refund.noRefunds, 'No Returns or Refunds'],
    ['/refund-policy heading', messages.public.refund.nonTransferable, 'Non-Transferable'],
    ['/refund-policy heading', messages.public.refund.needHelp, 'Need Help'],
    ['not found', messages.notFound.title, '404 - Page Not Found'],
    ['not found', messages.notFound.body, "The page you are looking for doesn't exist or has been moved."],
  ]);

  it('has eight privacy sections on the spec topics, in order', () => {
    const topics = ['collect', 'use', 'protection', 'sharing', 'rights', 'compliance', 'changes', 'contact'];
    expect(messages.public.privacy.sections).toHaveLength(8);
    messages.public.privacy.sections.forEach((heading, index) => {
      expect(heading.toLowerCase()).toContain(topics[index]);
    });
  });

  it('gives the contact page an e-mail address and a website address', () => {
    expect(messages.public.contact.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    expect(messages.public.contact.website).toMatch(/^https:\/\/\S+$/);
    expect(messages.public.contact.invite).toMatch(/information.*solutions or services/);
  });
});

describe('§2.2 authentication routes', () => {
  check([
    ['/login link to /register', messages.login.signUpLink, 'Not a member yet? Sign Up'],
    ['/register disabled', messages.register.forbidden, 'Forbidden'],
    ['/register disabled', messages.register.disabled, 'Registration is currently disabled.'],
    ['/register disabled', messages.register.goBackHome, 'Go Back Home'],
    ['/forgot-password button', messages.forgot.submit, 'Submit'],
    ['/forgot-password loading', messages.forgot.submitting, 'Submitting...'],
    ['/otp-verification', messages.otp.title, 'Verify Your Email'],
    [
      '/otp-verification',
      messages.otp.sentTo('agent@example.test'),
      'Enter the 6-digit OTP sent to: agent@example.test',
    ],
    ['/otp-verification button', messages.otp.verify, 'Verify'],
    ['/otp-verification countdown', messages.otp.expiresIn('04:59'), 'OTP expires in: 04:59'],
    ['/otp-verification', messages.otp.resend, 'Resend OTP'],
  ]);
});

describe('§2.3 signed-in routes', () => {
  check([
    ['/dashboard terms link', messages.search.termsLink, 'Terms of Services, Policies'],
    ['/dashboard overlay', messages.search.searching, 'Searching...'],
    ['/upgrade title', messages.upgrade.title, 'Not Availabe for trial'],
    ['/upgrade link', messages.upgrade.goToDashboard, 'Go to Dashboard'],
  ]);

  it('says on /upgrade that the feature is only for live users', () => {
    expect(messages.upgrade.body).toMatch(/only .*live users/);
  });
});

describe('§2.4 layout parts', () => {
  check([
    ['sidebar', messages.mainNav.emailSearch, 'Email Search'],
    ['sidebar', messages.mainNav.phoneSearch, 'Phone Search'],
    ['sidebar', messages.mainNav.leakFinder, 'Leak Data Finder'],
    ['sidebar', messages.mainNav.corporate, 'Corporate Intelligence'],
    ['sidebar', messages.mainNav.verifiedId, 'Verified ID'],
    ['sidebar', messages.mainNav.logout, 'Logout'],
    ['sidebar', messages.mainNav.help, 'Help'],
    ['sidebar footer', messages.footer.rights, 'All rights reserved'],
    ['header', messages.credits.label(42), 'Credits: 42'],
    ['header', messages.credits.label('17'), 'Credits: 17'],
    ['profile dropdown', messages.mainNav.logout, 'Logout'],
    ['logging out', messages.logout.inProgress, 'Logging out...'],
  ]);
});

describe('§2.5 results page', () => {
  check([
    ['no results', messages.search.noResultsButton, 'Start a new search'],
    ['copy hint', messages.results.copied, 'Copied!'],
    ['top bar', messages.results.aiReport, 'AI Report'],
    ['top bar', messages.results.saveResults, 'Save Results'],
    ['top bar', messages.results.saveAsPdf, 'Save as pdf'],
    ['top bar', messages.results.newSearch, 'New Search'],
    ['e-mail results', messages.results.foundBreaches, 'Found breaches'],
    ['e-mail results', messages.results.locations, 'Locations'],
    ['internet presence', messages.results.active, 'Active'],
    ['internet presence', messages.results.inactive, 'Inactive'],
    ['other elements', messages.results.markedAsSpam, 'Marked as Spam'],
    ['other elements', messages.results.whatsappBusiness, 'Whatsapp Business Account'],
    ['other elements', messages.results.phoneImsi, 'Phone IMSI'],
    ['other elements', messages.results.phoneStatus, 'Phone Status'],
    ['extra-record cards', messages.results.additionalInformation, 'Additional Information'],
    ['extra-record cards', messages.results.unknownUser, 'Unknown User'],
    ['detail modal', messages.details.rcTitle, 'RC Details'],
    ['detail modal', messages.details.upiTitle, 'UPI Details'],
    ['detail modal', messages.details.challanTitle, 'Challan Details'],
    ['detail modal', messages.details.noData('RC'), '⚠ No RC data available.'],
    ['detail modal', messages.details.noData('UPI'), '⚠ No UPI data available.'],
    ['detail modal', messages.details.downloadPdf, 'Download pdf'],
    ['detail modal', messages.details.close, 'Close'],
    ['credit report modal', messages.creditReport.title, 'Credit Report Request'],
    ['PAN line button', messages.creditReport.button, 'Credit Report'],
    ['credit report modal', messages.creditReport.downloading, 'Downloading...'],
  ]);

  it('has the nineteen profile sections with the spec titles, in the spec order', () => {
    expect(PROFILE_SECTIONS.map((section) => section.title)).toEqual([
      'Full Names and Alias',
      'Usernames',
      'Phone Numbers',
      'Emails',
      'Basic Info',
      'Bank Details',
      'Upi Ids',
      'Identity Proofs',
      'Verified Address',
      'Locations',
      'Country Codes',
      'Carriers',
      'Job Profiles',
      'RC Numbers',
      'Last Updated',
      'Qualifications',
      'Experience',
      'Skills',
      'Internet Presence',
    ]);
    expect(messages.results.internetPresence).toBe('Internet Presence');
  });
});

describe('§2.6 Leak Data Finder', () => {
  check([
    ['type selector', LEAK_FIELD_LABELS.name, 'Name'],
    ['type selector', LEAK_FIELD_LABELS.email, 'Email'],
    ['type selector', LEAK_FIELD_LABELS.phone, 'Phone'],
    ['type selector', LEAK_FIELD_LABELS.username, 'Username'],
    ['button', messages.search.submit, 'Search'],
    ['overlay', messages.leaks.searching, 'Searching...'],
    ['under 10', messages.leaks.resultsFound(7), '7 Results Found'],
    ['over 10', messages.leaks.pageOf(2, 13), 'Page 2 of 13 pages.'],
    ['empty', messages.leaks.noResults, 'No results found.'],
    ['pagination', messages.pagination.previous, 'Previous'],
    ['pagination', messages.pagination.next, 'Next'],
  ]);

  it('offers the four types in the spec order, each with its own placeholder', () => {
    expect([...LEAK_FIELD_TYPES]).toEqual(['name', 'email', 'phone', 'username']);
    const placeholders = Object.values(messages.leaks.placeholders);
    expect(new Set(placeholders).size).toBe(4);
  });
});

describe('§2.7 Corporate Intelligence', () => {
  const credit = corporateTypes.find((t) => t.type === 'credit_report');
  const gstin = corporateTypes.find((t) => t.type === 'corporate_gstin');
  check([
    [
      'corporate_gstin checkbox address',
      gstin?.fields.find((f) => f.name === 'address')?.label,
      'Split Address',
    ],
    ['credit_report button', credit?.submitLabel, 'Download Report'],
    ['other types button', corporateTypes.find((t) => t.type === 'corporate_cin')?.submitLabel, 'Search'],
    ['credit_report overlay', credit?.overlay, 'Generating PDF...'],
    ['other types overlay', gstin?.overlay, 'Searching...'],
    ['results heading', messages.intelPages.corporateResultTitle, 'Corporate Result:'],
    ['no data', messages.intelPages.noDataForSearch, 'No data found for this search.'],
    ['no data', messages.intelPages.tryAnother, 'Try another search'],
  ]);

  it('offers the years 2024, 2023, 2022, 2021 and the genders male and female', () => {
    expect(gstin?.fields.find((f) => f.name === 'year')?.options?.map((o) => o.value)).toEqual([
      '2024',
      '2023',
      '2022',
      '2021',
    ]);
    expect(credit?.fields.find((f) => f.name === 'gender')?.options?.map((o) => o.value)).toEqual([
      'male',
      'female',
    ]);
  });
});

describe('§2.8 Identity Intelligence', () => {
  check([
    ['optional badge', messages.intel.optional, 'Optional'],
    ['button', verificationTypes[0]?.submitLabel, 'Verify'],
    ['results title', messages.intelPages.verificationResultTitle, 'Identity Verified Result :'],
  ]);

  it('gives every verification type the Verify button', () => {
    for (const type of verificationTypes) expect(type.submitLabel).toBe('Verify');
  });
});

describe('§3 labels', () => {
  check([
    ['identity proof', IDENTITY_PROOF_LABELS.pan_number, 'PAN Number'],
    ['identity proof', IDENTITY_PROOF_LABELS.aadhaar_number, 'Aadhaar'],
    ['identity proof', IDENTITY_PROOF_LABELS.voter_id, 'Voter ID'],
    ['identity proof', IDENTITY_PROOF_LABELS.passport_number, 'Passport Number'],
    ['identity proof', IDENTITY_PROOF_LABELS.driving_license, 'Driving License Number'],
    ['identity proof', IDENTITY_PROOF_LABELS.ration_card, 'Ration Card Number'],
    ['source', messages.profile.sources.socialMedia, 'Social Media'],
    ['source', messages.profile.sources.whatsApp, 'WhatsApp'],
    ['source', messages.profile.sources.gov, 'Gov'],
    ['source', messages.profile.sources.isp, 'ISP Response'],
    ['source', messages.profile.sources.getUser, 'GetUser'],
    ['source', messages.profile.sources.linkedIn, 'LinkedIn'],
  ]);
});

describe('§4 states and transitions', () => {
  check([
    ['session expiry warning', messages.session.expired, 'Session expired. Please log in again.'],
    ['registration success', messages.register.success, 'Registration successful! Please log in.'],
    ['corporate success', messages.intelPages.found, 'Found data based on your search'],
    ['422', messages.intelPages.noData, 'No data found'],
    ['credit report success', messages.creditReport.success, 'Report downloaded successfully'],
  ]);
});

describe('§5 validation rules', () => {
  check([
    ['search e-mail', messages.search.invalidEmail, 'Please enter a valid email address'],
    ['search phone', messages.search.invalidPhone, 'Please enter a valid phone number'],
    [
      'search credits',
      messages.credits.insufficientUpgrade,
      'Insufficient credits. Please upgrade your plan.',
    ],
    ['search terms', messages.search.acceptTerms, 'Please accept the terms before submitting'],
    ['credit report gender', messages.creditReport.selectGender, 'Please select gender.'],
    ['leak row empty', messages.leaks.required, 'This field is required!'],
    ['leak row name', messages.leaks.invalidName, 'Name must contain only letters.'],
    ['leak row e-mail', messages.leaks.invalidEmail, 'Invalid email format'],
    ['leak row phone', messages.leaks.invalidPhone, 'Invalid phone number'],
    ['leak row username', messages.leaks.invalidUsername, 'Invalid username format'],
    ['leak first error fallback', messages.leaks.invalidInput, 'Please enter a valid input.'],
    ['leak fifth row', messages.leaks.maxRows, 'You can only add 4 fields'],
    ['corporate required', messages.intel.required('Mobile'), 'Mobile is required.'],
    ['corporate mobile', messages.intel.mobileDigits, 'Mobile number must contain only digits.'],
    ['corporate mobile', messages.intel.mobileLength, 'Mobile number must be between 7 and 12 digits.'],
    ['corporate PAN', messages.intel.invalidPan, 'Invalid PAN format.'],
    ['corporate consent', messages.intel.consent, 'You must consent to fetch your credit report.'],
    [
      'verification employment',
      messages.intel.combination,
      'Please fill all fields for at least one valid combination (e.g. phone + pan, uan + name, etc).',
    ],
    ['OTP', messages.otp.invalidValue, 'Invalid OTP value'],
  ]);
});

describe('§8 error catalogue', () => {
  check([
    ['401 on any call', messages.session.expired, 'Session expired. Please log in again.'],
    ['login failure', messages.login.failed, 'Login failed. Please check your credentials.'],
    ['register failure', messages.register.failed, 'Register failed. Please check your credentials.'],
    ['registration status fails', messages.register.disabled, 'Registration is currently disabled.'],
    ['forgot password', messages.forgot.success, 'Password reset link sent successfully!'],
    [
      'reset password',
      messages.reset.success,
      'Your password has been reset! And Click the Back to redirect to login',
    ],
    ['search 402', messages.credits.insufficient, 'Insufficient credits.'],
    ['search failure', messages.search.somethingWrong, 'Something went wrong.'],
    ['PDF report', messages.reports.failed, 'Error generating report. Please try again.'],
    ['AI report', messages.reports.aiFailed, 'Error generating AI report. Please try again.'],
    [
      'detail lookup credits',
      messages.credits.insufficientUpgrade,
      'Insufficient credits. Please upgrade your plan.',
    ],
    ['RC failure', messages.details.rcFailed, 'something went Wrong'],
    ['UPI failure', messages.details.upiFailed, 'something went Wrong'],
    ['challan failure', messages.details.challanFailed, 'Failed to fetch RC details'],
    ['empty challan list', messages.details.noChallans, 'No data found on this RC number'],
    ['credit report success', messages.creditReport.success, 'Report downloaded successfully'],
    [
      'credit report failure',
      messages.creditReport.failed,
      'Error occurred. Please check your data and try again.',
    ],
    ['credit report gender', messages.creditReport.selectGender, 'Please select gender.'],
    ['leak finder failure', messages.leaks.failed, 'Something went wrong. Please try again.'],
    ['corporate failure', messages.intelPages.failed, 'Something went wrong. Please try again.'],
    ['corporate credits', messages.intelPages.creditsRemaining(7), ' You have 7 credits remaining.'],
    ['corporate other statuses', messages.intelPages.somethingWrong, 'Something went wrong'],
    ['corporate 422', messages.intelPages.noData, 'No data found'],
    ['verification with a response', messages.intelPages.internalError, 'internal server error'],
    ['verification 400', messages.intelPages.badRequest, 'Bad request.'],
    ['OTP verify', messages.otp.verifyFailed, 'OTP verification failed'],
    ['OTP resend failure', messages.otp.resendFailed, 'Failed to resend OTP.'],
    ['OTP resend success', messages.otp.resendSuccess, 'OTP resend successfully.'],
    ['unknown route', messages.notFound.title, '404 - Page Not Found'],
  ]);
});

/**
 * The web app and the server take these texts from the module: none of the longer ones is typed out in
 * their sources, where a copy could drift from the module (and from the spec) unnoticed.
 */
describe('one source of the spec texts', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sources(path);
      return /\.tsx?$/.test(name) ? [path] : [];
    });
  /** The text of every string, template and JSX text of a file (comments are not code, so not read). */
  const literals = (path: string): string[] => {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
      else if (ts.isTemplateExpression(node))
        found.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
      else if (ts.isJsxText(node)) found.push(node.text.replace(/\s+/g, ' ').trim());
      ts.forEachChild(node, visit);
    };
    visit(file);
    return found;
  };
  const files = [...sources(join(root, 'apps/web/src')), ...sources(join(root, 'apps/server/src'))].map(
    (path) => ({ path: path.slice(root.length), literals: literals(path) }),
  );

  const texts = [
    'Session expired. Please log in again.',
    'Login failed. Please check your credentials.',
    'Register failed. Please check your credentials.',
    'Registration successful! Please log in.',
    'Registration is currently disabled.',
    'Password reset link sent successfully!',
    'Your password has been reset! And Click the Back to redirect to login',
    'Not a member yet? Sign Up',
    'Verify Your Email',
    'Enter the 6-digit OTP sent to:',
    'OTP expires in:',
    'Invalid OTP value',
    'OTP verification failed',
    'Failed to resend OTP.',
    'OTP resend successfully.',
    '404 - Page Not Found',
    "The page you are looking for doesn't exist or has been moved.",
    'Not Availabe for trial',
    'Terms of Services, Policies',
    'Insufficient credits. Please upgrade your plan.',
    'Please enter a valid email address',
    'Please enter a valid phone number',
    'Please accept the terms before submitting',
    'Whatsapp Business Account',
    'Additional Information',
    'Credit Report Request',
    ' data available.',
    'No data found on this RC number',
    'Failed to fetch RC details',
    'something went Wrong',
    'Error generating report. Please try again.',
    'Error generating AI report. Please try again.',
    'Error occurred. Please check your data and try again.',
    'Please select gender.',
    'This field is required!',
    'Name must contain only letters.',
    'Invalid username format',
    'Please enter a valid input.',
    'You can only add 4 fields',
    'Results Found',
    'No results found.',
    'Something went wrong. Please try again.',
    'Mobile number must contain only digits.',
    'Mobile number must be between 7 and 12 digits.',
    'You must consent to fetch your credit report.',
    'Please fill all fields for at least one valid combination',
    'Found data based on your search',
    'Corporate Result:',
    'Identity Verified Result :',
    'No data found for this search.',
    'Try another search',
    'Report downloaded successfully',
    'internal server error',
    'Proactive Intelligence: Uncover Threats, Secure the Future.',
    'FIND YOUR DIGITAL FOOTPRINT',
    'Full Names and Alias',
  ];

  it.each(texts)('%j is written only in messages.ts', (text) => {
    const copies = files
      .filter((file) => file.literals.some((literal) => literal.includes(text)))
      .map((file) => file.path);
    expect(copies).toEqual([]);
  });

  it('reads every source file it means to', () => {
    expect(files.some((file) => file.path.endsWith('apps/web/src/features/search/DashboardPage.tsx'))).toBe(
      true,
    );
    expect(files.some((file) => file.path.endsWith('apps/server/src/app.ts'))).toBe(true);
  });
});
