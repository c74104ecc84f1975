/**
 * The username report: the site check's answer for one name, as stored with the lookup. After the
 * standard cover: the sites per state and how much of the catalogue was checked; every site where an
 * account was found with the evidence kept for it (profile and final URL, HTTP status, page title,
 * when, the SHA-256 of the body and its size); the sites that could not say (blocked, error, not
 * checked) by name with their reasons; the accounts a vendor's account search reported, attributed to
 * it; and what a 'found' rests on. The sites that said there is no such account are only counted.
 */

import { type AnsweredSite, type SiteState, siteCheckNothingFound } from '@footprint/domain';
import { clean, count, isoUtc, readableUtc, thousands } from './format.ts';
import { drawAbout, drawCover } from './frame.ts';
import { COLOR, type Column, type Row, type Span, STYLE, text, type Writer } from './layout.ts';
import type { UsernameReportJob } from './types.ts';

export const USERNAME_TITLE = 'Username Report';

type Answer = NonNullable<UsernameReportJob['answer']>;

/** Each state in words, as the summary and the sections name it. */
const STATE_WORDS: Record<SiteState, string> = {
  found: 'Found',
  not_found: 'Not found',
  blocked: 'Blocked',
  error: 'Error',
  not_checked: 'Not checked',
};

/** What each section of the sites that could not say holds, in a sentence. */
const UNANSWERED: Array<{ state: SiteState; note: string }> = [
  {
    state: 'blocked',
    note: 'A challenge, a firewall page, a login wall or a rate limit answered instead of the site: it said nothing either way.',
  },
  {
    state: 'error',
    note: 'The site could not be reached, timed out, or answered in a way its signal does not cover.',
  },
  {
    state: 'not_checked',
    note: 'Not asked: the site is quarantined by the catalogue’s self-check, or the name is not one it allows.',
  },
];

const cellText = (value: unknown, max = 400): string => clean(value, { max }) || '—';
const small = (value: string): Span => text(value, STYLE.small);
const body = (value: string): Span => text(value, { ...STYLE.body, size: 8.2 });

/** '2026-10-01T06:30:00.655Z' → '2026-10-01' and '06:30:00.655 UTC' on two lines (a narrow column). */
const stamp = (iso: string): string => isoUtc(iso).replace('T', '\n').replace(/Z$/, ' UTC');

/** The full 64-hex SHA-256 in two lines of 32, so that it wraps at a known place and never loses a digit. */
const hashLines = (sha256: string): string => {
  const hex = clean(sha256, { max: 128 });
  return hex.length === 64 ? `${hex.slice(0, 32)}\n${hex.slice(32)}` : hex || '—';
};

/** Sites checked over the catalogue: '1,204 of 1,312 catalogue sites checked'. */
export const checkedLine = (answer: Answer): string =>
  `${thousands(answer.catalogue.scope - answer.counts.not_checked)} of ${thousands(answer.catalogue.sites)} catalogue sites checked`;

function drawSummary(writer: Writer, answer: Answer): void {
  writer.heading('Summary', { note: checkedLine(answer), keep: 80 });
  writer.tiles(
    (['found', 'not_found', 'blocked', 'error', 'not_checked'] as const).map((state) => ({
      label: STATE_WORDS[state],
      value: thousands(answer.counts[state] ?? 0),
      tone: state === 'found' && answer.counts.found > 0 ? ('good' as const) : ('default' as const),
    })),
  );
  const outOfScope = answer.catalogue.sites - answer.catalogue.scope;
  writer.paragraph(
    [
      body(
        `${checkedLine(answer)}: the check covered ${count(answer.catalogue.scope, 'site')} of the catalogue` +
          `${outOfScope > 0 ? ` (${thousands(outOfScope)} out of its scope)` : ''}, of which ` +
          `${thousands(answer.counts.not_checked)} were not asked. ` +
          `The name checked was '${clean(answer.username, { max: 100 })}'. ` +
          `The first request went out on ${readableUtc(answer.started_at)} and the last answer came on ${readableUtc(answer.finished_at)}.`,
      ),
    ],
    { after: 8 },
  );
  if (answer.counts.found === 0) {
    writer.notice(
      [
        text('Found nowhere. ', { size: 9.5, color: COLOR.navy, weight: 'bold' }),
        text(siteCheckNothingFound({ ...answer, not_found: [] }), { size: 9, color: COLOR.navy }),
      ],
      { fill: COLOR.accentSoft, bar: COLOR.accent },
    );
  }
}

/** One found account: the site, its addresses, the answer and the page's title and hash. */
function foundRow(site: AnsweredSite): Row {
  const evidence = site.evidence;
  const siteCell: Span[] = [
    text(cellText(site.name, 120), { ...STYLE.bodyBold, size: 8.4 }),
    small(`\n${cellText(site.category, 60)}${site.india ? ' · India' : ''}`),
  ];
  const addresses: Span[] = [
    text('Profile URL\n', STYLE.columnHeader),
    body(cellText(site.url, 600)),
    text('\nFinal URL\n', STYLE.columnHeader),
    body(evidence ? cellText(evidence.final_url, 600) : '—'),
  ];
  const checkedAt = [
    text('\nChecked at\n', STYLE.columnHeader),
    small(stamp(evidence?.checked_at ?? site.checked_at)),
  ];
  const answer: Span[] = evidence
    ? [body(`HTTP ${evidence.status}`), small(`\n${count(evidence.bytes, 'byte')}`), ...checkedAt]
    : [body('No evidence kept'), ...checkedAt];
  const page: Span[] = [
    text('Page title\n', STYLE.columnHeader),
    body(evidence ? clean(evidence.title, { max: 300 }) || '(none)' : '—'),
    text('\nSHA-256\n', STYLE.columnHeader),
    text(evidence ? hashLines(evidence.sha256) : '—', { size: 7.4, color: COLOR.ink }),
  ];
  return { cells: [siteCell, addresses, answer, page] };
}

function drawFound(writer: Writer, found: AnsweredSite[]): void {
  if (found.length === 0) return;
  const columns: Column[] = [
    { header: 'Site', weight: 16 },
    { header: 'Addresses', weight: 34 },
    { header: 'Answer', weight: 17 },
    { header: 'Title and SHA-256 of the body', weight: 33 },
  ];
  const rows = found.map(foundRow);
  const title = 'Accounts found';
  writer.heading(title, { note: count(found.length, 'site'), keep: writer.keepFor({ columns, rows }, 160) });
  writer.paragraph(
    [
      small(
        'Each site’s own signal said the account exists. The evidence is what the site answered: the address of its last answer after redirects, its HTTP status, the page’s title, the size of the body read and the SHA-256 of exactly those bytes.',
      ),
    ],
    { after: 6 },
  );
  writer.table({ columns, rows, title });
}

function drawUnanswered(writer: Writer, sites: AnsweredSite[]): void {
  const groups = UNANSWERED.map((group) => ({
    ...group,
    sites: sites.filter((site) => site.state === group.state),
  })).filter((group) => group.sites.length > 0);
  if (groups.length === 0) return;
  writer.heading('Sites that could not say', {
    note: count(
      groups.reduce((sum, group) => sum + group.sites.length, 0),
      'site',
    ),
    keep: 80,
  });
  const columns: Column[] = [
    { header: 'Site', weight: 22 },
    { header: 'Profile URL', weight: 38 },
    { header: 'Reason', weight: 40 },
  ];
  for (const group of groups) {
    const rows: Row[] = group.sites.map((site) => ({
      cells: [
        [
          text(cellText(site.name, 120), { ...STYLE.bodyBold, size: 8.2 }),
          small(`\n${cellText(site.category, 60)}${site.india ? ' · India' : ''}`),
        ],
        [body(cellText(site.url, 600))],
        [body(cellText(site.reason, 600))],
      ],
    }));
    const title = STATE_WORDS[group.state];
    writer.heading(title, {
      level: 2,
      note: count(rows.length, 'site'),
      keep: writer.keepFor({ columns, rows }, 120),
    });
    writer.paragraph([small(group.note)], { after: 4 });
    writer.table({ columns, rows, title });
  }
}

/** The accounts a vendor's account search reported: site, name, address, when; attributed to the vendor. */
function drawAccountSearch(writer: Writer, search: NonNullable<UsernameReportJob['accountSearch']>): void {
  const vendor = clean(search.vendor, { max: 80 }) || 'the vendor';
  const { answer } = search;
  const columns: Column[] = [
    { header: 'Site', weight: 22 },
    { header: 'Username', weight: 20 },
    { header: 'Profile URL', weight: 40 },
    { header: 'Reported at', weight: 18 },
  ];
  const rows: Row[] = answer.accounts.map((account) => ({
    cells: [
      [text(cellText(account.site, 120), { ...STYLE.bodyBold, size: 8.2 })],
      [body(cellText(account.username, 200))],
      [body(cellText(account.url, 600))],
      [small(stamp(account.found_at))],
    ],
  }));
  const title = `Accounts reported by ${vendor}`;
  writer.heading(title, {
    note: count(rows.length, 'account'),
    keep: writer.keepFor({ columns, rows }, 120),
  });
  writer.paragraph(
    [
      small(
        `Reported by ${vendor}’s account search (its search ${cellText(answer.search_id, 80)}), as the vendor gave them: ` +
          'Footprint did not visit these pages and keeps no evidence of them.' +
          (answer.complete
            ? ''
            : ' The search had not finished when the lookup’s time ran out: these are the accounts reported by then.'),
      ),
    ],
    { after: 4 },
  );
  writer.table({ columns, rows, title });
}

function drawMethod(writer: Writer): void {
  writer.heading('Method', { keep: 60 });
  const lines = [
    'Every site of the catalogue (built from the MIT-licensed Sherlock and Maigret site lists) was asked for the profile address of the name. A site is marked found only when its own signal says the account exists, as its check type defines it: a 2xx answer where a missing profile answers 404 or its own codes; a marker text in the page that appears only on an existing profile; or an answer in place where a missing profile is redirected away.',
    'The evidence of a found account hashes the bytes of the body as they were received (up to the size cap), so the SHA-256 identifies the page as it was served at the time shown; a page fetched later, or by a browser, can differ.',
    'A blocked site (a challenge, a firewall or login page, a rate limit) and a site that failed say nothing either way: the account may or may not exist there. A found account shows that a profile of that name exists on the site, not who holds it.',
  ];
  for (const line of lines) writer.paragraph([body(line)], { after: 5 });
}

export function drawUsernameReport(writer: Writer, job: UsernameReportJob): void {
  drawCover(writer, {
    title: USERNAME_TITLE,
    kindLabel: 'Username',
    value: job.query,
    searchedAt: job.searchedAt,
    answeredAt: job.answeredAt,
    reusedFrom: job.reusedFrom,
    generatedAt: job.generatedAt,
    account: job.account,
    lookupId: job.lookupId,
    reportId: job.reportId,
    caseReference: job.caseReference ?? null,
    legalBasis: job.legalBasis ?? null,
    sandbox: job.sandbox,
  });
  const answer = job.answer;
  if (!answer) {
    writer.notice(
      [
        text('The site check gave no answer. ', { size: 9.5, color: COLOR.amber, weight: 'bold' }),
        text(clean(job.failure, { max: 400 }) || 'No site was asked.', { size: 9, color: COLOR.amber }),
      ],
      { fill: COLOR.amberFill, bar: COLOR.amberLine },
    );
  } else {
    drawSummary(writer, answer);
    drawFound(
      writer,
      answer.sites.filter((site) => site.state === 'found'),
    );
    drawUnanswered(writer, answer.sites);
  }
  if (job.accountSearch) drawAccountSearch(writer, job.accountSearch);
  drawMethod(writer);
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra: `The sites that said there is no such account are counted, not listed. Retrieved on ${readableUtc(job.answeredAt ?? job.searchedAt)}.`,
  });
}
