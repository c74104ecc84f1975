/**
 * The phone and e-mail lookup report ('Save as pdf', spec §2.5): the cover, the phone highlights, every
 * profile section with its sources, breaches and registered sites (e-mail), extra records, what became
 * of each source and the closing note.
 */
import {
  type Experience,
  type ExtraRecord,
  type MergedProfile,
  messages,
  type PlatformPresence,
  PROFILE_SECTIONS,
  type ProfileEntry,
  type Qualification,
  readSourceStatus,
  SOURCE_LONG_LABELS,
  type SourcePanel,
  type SourceState,
  sourcePanel,
} from '@footprint/domain';
import { clean, count, readableDay, thousands } from './format.ts';
import { drawAbout, drawCover, sourceChip, sourceChips } from './frame.ts';
import { COLOR, type Column, chip, gap, type Row, type Span, STYLE, type Surface, text } from './layout.ts';
import { drawMergedValues } from './merged.ts';
import type { LookupReportJob } from './types.ts';

export const LOOKUP_TITLE = 'Footprint lookup report';
/** The heading of the merged values, as the results page names them. */
export const MERGED_TITLE = messages.results.mergedProfile;

const KIND_LABEL = { tel: 'Phone number', email: 'E-mail address' } as const;

/** Most rows one table prints; the rest are counted (upstream answers are capped, not trusted to be). */
export const MAX_ROWS = 500;
const MAX_RECORDS = 200;

const list = <T>(value: T[] | null | undefined): T[] => (Array.isArray(value) ? value : []);

/** A last row saying how many rows were left out. */
function capped(rows: Row[], total: number, columns: number): Row[] {
  if (rows.length <= MAX_ROWS) return rows;
  const more = total - MAX_ROWS;
  const note: Row = {
    cells: [
      [text(`… and ${thousands(more)} more not shown in this report.`, STYLE.small)],
      ...Array(columns - 1).fill([]),
    ],
  };
  return [...rows.slice(0, MAX_ROWS), note];
}

type Section = (typeof PROFILE_SECTIONS)[number];

function sectionItems(profile: MergedProfile, section: Section): unknown[] {
  const items = (profile as unknown as Record<string, unknown>)[section.key];
  return Array.isArray(items) ? items : [];
}

/** One row per distinct value: the same value from several sources is one row with several chips. */
function groupEntries(entries: ProfileEntry[]): Array<{ key?: string; value: string; sources: string[] }> {
  const groups = new Map<string, { key?: string; value: string; sources: string[] }>();
  for (const entry of entries) {
    const value = clean(entry.value);
    if (!value) continue;
    const key = entry.key ? clean(entry.key, { max: 80 }) : undefined;
    const id = `${key?.toLowerCase() ?? ''}\u0000${value.toLowerCase()}`;
    const group = groups.get(id);
    if (!group)
      groups.set(id, key ? { key, value, sources: [entry.source] } : { value, sources: [entry.source] });
    else if (!group.sources.includes(entry.source)) group.sources.push(entry.source);
  }
  return [...groups.values()];
}

function years(item: { startYear?: number; endYear?: number }): string {
  const { startYear: start, endYear: end } = item;
  if (start && end) return start === end ? String(start) : `${start} – ${end}`;
  if (start) return `${start} – present`;
  if (end) return `until ${end}`;
  return '—';
}

const muted = (value: string): Span => text(value, { ...STYLE.body, color: COLOR.faint });
const value = (v: string): Span[] => (v ? [text(v, STYLE.body)] : [muted('—')]);

interface SectionTable {
  columns: Column[];
  rows: Row[];
}

function entryTable(entries: ProfileEntry[]): SectionTable {
  const rows = groupEntries(entries).map((group) => ({
    cells: [
      group.key
        ? [text(`${group.key}: `, STYLE.key), text(group.value, STYLE.body)]
        : [text(group.value, STYLE.body)],
      sourceChips(group.sources),
    ],
  }));
  return {
    columns: [
      { header: 'Value', weight: 63 },
      { header: 'Source', weight: 37 },
    ],
    rows,
  };
}

function qualificationTable(items: Qualification[]): SectionTable {
  return {
    columns: [
      { header: 'Qualification', weight: 36 },
      { header: 'Institution', weight: 30 },
      { header: 'Years', weight: 15 },
      { header: 'Source', weight: 19 },
    ],
    rows: items.map((item) => {
      const degree = clean(item.degree);
      const field = clean(item.field);
      const school = clean(item.school);
      const title: Span[] = degree
        ? [text(degree, STYLE.bodyBold), ...(field ? [text(`\n${field}`, STYLE.body)] : [])]
        : value(field);
      return {
        cells: [
          title,
          [...value(school), ...(item.url ? [text(`\n${clean(item.url)}`, STYLE.small)] : [])],
          [text(years(item), STYLE.body)],
          [sourceChip(item.source)],
        ],
      };
    }),
  };
}

function experienceTable(items: Experience[]): SectionTable {
  return {
    columns: [
      { header: 'Role', weight: 36 },
      { header: 'Organisation', weight: 30 },
      { header: 'Years', weight: 15 },
      { header: 'Source', weight: 19 },
    ],
    rows: items.map((item) => ({
      cells: [
        clean(item.title) ? [text(clean(item.title), STYLE.bodyBold)] : [muted('—')],
        [...value(clean(item.company)), ...(item.url ? [text(`\n${clean(item.url)}`, STYLE.small)] : [])],
        [text(years(item), STYLE.body)],
        [sourceChip(item.source)],
      ],
    })),
  };
}

export const activeChip = (active: boolean): Span =>
  active
    ? chip(messages.results.active, COLOR.greenFill, COLOR.green)
    : chip(messages.results.inactive, COLOR.greyFill, COLOR.muted);

function presenceTable(items: PlatformPresence[]): SectionTable {
  // Accounts that exist first: they are findings; an inactive platform is a negative result.
  const ordered = [...items.filter((item) => item.active), ...items.filter((item) => !item.active)];
  return {
    columns: [
      { header: 'Platform', weight: 24 },
      { header: 'Status', weight: 14 },
      { header: 'Profile link', weight: 40 },
      { header: 'Source', weight: 22 },
    ],
    rows: ordered.map((item) => ({
      cells: [
        [text(clean(item.platform, { max: 200 }), STYLE.bodyBold)],
        [activeChip(item.active)],
        item.url ? [text(clean(item.url), { ...STYLE.body, size: 8, color: COLOR.accent })] : [muted('—')],
        [sourceChip(item.source)],
      ],
    })),
  };
}

function tableFor(section: Section, items: unknown[]): SectionTable {
  switch (section.key) {
    case 'qualifications':
      return qualificationTable(items as Qualification[]);
    case 'experience':
      return experienceTable(items as Experience[]);
    case 'internetPresence':
      return presenceTable(items as PlatformPresence[]);
    default:
      return entryTable(items as ProfileEntry[]);
  }
}

function drawProfile(writer: Surface, profile: MergedProfile): void {
  const sections = PROFILE_SECTIONS.map((section) => ({
    section,
    items: sectionItems(profile, section),
  })).filter(({ items }) => items.length > 0);
  const total = sections.reduce((sum, { items }) => sum + items.length, 0);
  const sources = new Set<string>();
  for (const { items } of sections)
    for (const item of items) sources.add((item as { source: string }).source);
  const tables = sections.map(({ section, items }) => ({ section, items, table: tableFor(section, items) }));

  writer.heading('Profile summary', {
    note: sections.length
      ? `each value as its source gave it · ${count(total, 'value')} · ${count(sources.size, 'source')}`
      : undefined,
    keep: tables[0] ? 32 + writer.keepFor(tables[0].table, 160) : 40,
  });
  if (tables.length === 0) {
    writer.paragraph([muted('No profile values were found for this search.')], { after: 6 });
    return;
  }
  for (const { section, items, table: full } of tables) {
    const table = { ...full, rows: capped(full.rows, full.rows.length, full.columns.length) };
    const distinct = full.rows.length < items.length ? ` · ${count(full.rows.length, 'distinct value')}` : '';
    writer.heading(section.title, {
      level: 2,
      note: `${count(items.length, 'entry', 'entries')}${distinct}`,
      keep: writer.keepFor(table, 160),
    });
    writer.table({ ...table, title: section.title });
  }
  const images = Array.isArray(profile.images) ? profile.images : [];
  if (images.length > 0) {
    const from = [...new Set(images.map((image) => image.source))].join(', ');
    writer.space(8);
    writer.paragraph(
      [
        text(`${count(images.length, 'profile image')} found (${from}). `, {
          ...STYLE.small,
          color: COLOR.body,
        }),
        text(
          'Images are not embedded in this report; open the lookup in Footprint to view them.',
          STYLE.small,
        ),
      ],
      { after: 4 },
    );
  }
}

function drawHighlights(writer: Surface, job: LookupReportJob): void {
  const h = job.highlights;
  if (!h) return;
  writer.heading('Phone highlights', { keep: 70 });
  // A flag whose source never answered is not known: printing "No" would invent a finding.
  const answered = h.answered ?? { social: true, whatsapp: true, isp: true };
  const flag = (value: boolean, known: boolean) =>
    known ? (value ? 'Yes' : 'No') : messages.results.notKnown;
  const notAnswered = 'Its source did not answer';
  writer.tiles([
    {
      label: messages.results.markedAsSpam,
      value: flag(h.markedAsSpam, answered.social),
      tone: h.markedAsSpam ? 'warn' : 'default',
      ...(answered.social ? {} : { note: notAnswered }),
    },
    {
      label: messages.results.whatsappBusiness,
      value: flag(h.whatsappBusiness, answered.whatsapp),
      ...(answered.whatsapp ? {} : { note: notAnswered }),
    },
    {
      label: messages.results.phoneStatus,
      value:
        h.phoneStatus === 'Active'
          ? messages.results.active
          : h.phoneStatus === 'Inactive'
            ? messages.results.inactive
            : messages.results.notKnown,
      tone: h.phoneStatus === 'Active' ? 'good' : 'default',
      note:
        h.phoneStatus === 'Active'
          ? 'ISP reported a timestamp'
          : h.phoneStatus === 'Inactive'
            ? 'No ISP timestamp'
            : 'The ISP source did not answer',
    },
    { label: messages.results.phoneImsi, value: clean(h.imsi, { max: 40 }) || 'Not available' },
  ]);
  writer.paragraph(
    [
      text('Facebook: ', STYLE.key),
      h.facebookUrl
        ? text(clean(h.facebookUrl), { ...STYLE.body, color: COLOR.accent })
        : muted(answered.social ? 'No profile found' : 'Not known (the social media source did not answer)'),
    ],
    { after: 2 },
  );
}

function drawBreaches(writer: Surface, job: LookupReportJob): void {
  const breaches = list(job.breaches).filter((breach) => typeof breach === 'object' && breach !== null);
  const records = breaches.reduce(
    (sum, b) => sum + (typeof b.PwnCount === 'number' && b.PwnCount > 0 ? b.PwnCount : 0),
    0,
  );
  const table: SectionTable = {
    columns: [
      { header: 'Breach', weight: 27 },
      { header: 'Breach date', weight: 15 },
      { header: 'Records', weight: 15, align: 'right' },
      { header: 'Data classes', weight: 43 },
    ],
    rows: breaches.map((breach) => {
      const title = clean(breach.Title) || clean(breach.Name) || 'Unnamed breach';
      const name = clean(breach.Name);
      const domain = clean(breach.Domain);
      const same = (a: string, b: string) =>
        a.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase() === b.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
      const below = [name && !same(name, title) ? name : '', domain].filter(Boolean).join(' · ');
      const flagChips: Span[] = [];
      if (breach.IsSensitive === true) flagChips.push(chip('Sensitive', COLOR.redFill, COLOR.red, 6.5));
      if (breach.IsVerified === false)
        flagChips.push(
          ...(flagChips.length ? [gap(3)] : []),
          chip('Unverified', COLOR.greyFill, COLOR.muted, 6.5),
        );
      const flags = flagChips.length ? [text('\n', STYLE.small), ...flagChips] : [];
      const classes = Array.isArray(breach.DataClasses)
        ? breach.DataClasses.map((c) => clean(c, { max: 80 })).filter(Boolean)
        : [];
      return {
        cells: [
          [text(title, STYLE.bodyBold), ...(below ? [text(`\n${below}`, STYLE.small)] : []), ...flags],
          [text(breach.BreachDate ? readableDay(clean(breach.BreachDate, { max: 40 })) : '—', STYLE.body)],
          [text(typeof breach.PwnCount === 'number' ? thousands(breach.PwnCount) : '—', STYLE.body)],
          classes.length ? [text(classes.join(', '), { ...STYLE.body, size: 8.2 })] : [muted('—')],
        ],
      };
    }),
  };
  const note = breaches.length
    ? `${count(breaches.length, 'breach', 'breaches')} · ${thousands(records)} records`
    : undefined;
  writer.heading(messages.results.foundBreaches, {
    note,
    keep: breaches.length ? writer.keepFor(table, 160) : 30,
  });
  if (breaches.length === 0) {
    writer.paragraph([muted('No breaches were found for this address.')], { after: 4 });
    return;
  }
  writer.table({
    ...table,
    rows: capped(table.rows, breaches.length, 4),
    title: messages.results.foundBreaches,
  });
}

function drawRegisteredSites(writer: Surface, job: LookupReportJob): void {
  const sites = [
    ...new Set(
      list(job.registeredSites)
        .map((site) => clean(site, { max: 120 }))
        .filter(Boolean),
    ),
  ].slice(0, MAX_ROWS);
  writer.heading('Registered sites', {
    note: sites.length ? count(sites.length, 'site') : undefined,
    keep: 40,
  });
  if (sites.length === 0) {
    writer.paragraph([muted('No registered sites were found for this address.')], { after: 4 });
    return;
  }
  writer.paragraph(
    [
      text(
        'The address is registered with an account on these sites (source: Registered Sites).\n',
        STYLE.small,
      ),
      ...sites.flatMap((site, i) => [...(i ? [gap(4)] : []), chip(site, COLOR.accentSoft, COLOR.accent, 8)]),
    ],
    { after: 4 },
  );
}

function drawExtraRecords(writer: Surface, records: ExtraRecord[]): void {
  const rowsOf = (record: ExtraRecord): Row[] => {
    const pairs: Array<[string, string]> = [];
    if (record.phone) pairs.push(['Phone', clean(record.phone)]);
    if (record.email) pairs.push(['Email', clean(record.email)]);
    for (const [label, v] of list(record.additional).slice(0, MAX_ROWS)) {
      const shown = clean(v);
      if (shown) pairs.push([clean(label, { max: 80 }), shown]);
    }
    if (pairs.length === 0) pairs.push(['Details', '—']);
    return pairs.map(([label, v]) => ({ cells: [[text(label, STYLE.key)], [text(v, STYLE.body)]] }));
  };
  const first = records[0];
  const columns: Column[] = [
    { header: 'Field', weight: 28 },
    { header: 'Value', weight: 72 },
  ];
  // A record that fits on a page is kept in one piece (with its heading).
  const keepOf = (record: ExtraRecord) => {
    const rows = rowsOf(record);
    const whole = writer.tableHeight({ columns, rows });
    return whole <= 420 ? whole : writer.tableLead({ columns, rows });
  };
  writer.heading('Extra records', {
    note: records.length ? count(records.length, 'record') : undefined,
    keep: first ? 50 + keepOf(first) : 30,
  });
  if (records.length === 0) {
    writer.paragraph([muted('No extra records were returned.')], { after: 4 });
    return;
  }
  writer.paragraph(
    [text('Records returned by open sources (source: OSINT), as the results page lists them.', STYLE.small)],
    {
      after: 2,
    },
  );
  records.slice(0, MAX_RECORDS).forEach((record, i) => {
    const name = clean(record.name, { max: 200 }) || messages.results.unknownUser;
    const title = `Record ${i + 1} of ${records.length} — ${name}`;
    const rows = rowsOf(record);
    writer.heading(title, { level: 2, keep: keepOf(record) });
    writer.table({ columns, rows, title: `Extra records › ${title}` });
  });
  if (records.length > MAX_RECORDS) {
    writer.paragraph([
      text(
        `… and ${thousands(records.length - MAX_RECORDS)} more records not shown in this report.`,
        STYLE.small,
      ),
    ]);
  }
}

const STATE_TONES: Record<SourceState, [fill: string, ink: string]> = {
  ok: [COLOR.greenFill, COLOR.green],
  not_found: [COLOR.greyFill, COLOR.muted],
  not_configured: [COLOR.greyFill, COLOR.muted],
  rate_limited: [COLOR.amberFill, COLOR.amber],
  timed_out: [COLOR.amberFill, COLOR.amber],
  failed: [COLOR.redFill, COLOR.red],
};

/** The lookup's sources in the results page's words, each source under its name for a document. */
function panelOf(job: LookupReportJob): SourcePanel {
  const status = readSourceStatus(job.sourceStatus) ?? {};
  return sourcePanel({ status, derived: job.sourceStatusDerived === true }, SOURCE_LONG_LABELS);
}

/**
 * 'Sources': every source of the lookup with its state (the message beside it when it says more) and
 * who answers it, live with the vendor's name or sandbox, as the results page's source panel lists them.
 */
function drawSources(writer: Surface, panel: SourcePanel): void {
  const words = messages.sources;
  if (panel.total === 0) {
    writer.heading(words.heading, { keep: 40 });
    writer.paragraph([muted(words.none)], { after: 4 });
    return;
  }
  const table: SectionTable = {
    columns: [
      { header: words.columns.source, weight: 26 },
      { header: words.columns.status, weight: 40 },
      { header: words.columns.answeredBy, weight: 34 },
    ],
    rows: panel.lines.map((line) => {
      const [fill, ink] = STATE_TONES[line.state];
      return {
        cells: [
          [text(clean(line.label, { max: 80 }), STYLE.bodyBold)],
          [
            chip(line.stateText, fill, ink),
            ...(line.detail ? [text(` ${clean(line.detail, { max: 200 })}`, STYLE.body)] : []),
          ],
          [text(clean(line.modeText, { max: 120 }), STYLE.body)],
        ],
      };
    }),
  };
  // The list is short: kept whole on one page with its heading and summary when it fits.
  writer.heading(words.heading, { keep: 40 + writer.keepFor(table, 320) });
  writer.paragraph([text(panel.summary, STYLE.bodyBold)], { after: panel.derived ? 2 : 6 });
  if (panel.derived) writer.paragraph([text(words.derived, STYLE.small)], { after: 6 });
  writer.table({ ...table, title: words.heading });
}

export function drawLookupReport(writer: Surface, input: LookupReportJob): void {
  const job: LookupReportJob = {
    ...input,
    breaches: list(input.breaches),
    registeredSites: list(input.registeredSites),
    extraRecords: list(input.extraRecords).filter((record) => typeof record === 'object' && record !== null),
    sourceErrors: input.sourceErrors && typeof input.sourceErrors === 'object' ? input.sourceErrors : {},
  };
  const sources = panelOf(job);
  const kind = job.kind === 'email' ? 'email' : 'tel';
  drawCover(writer, {
    title: LOOKUP_TITLE,
    kindLabel: KIND_LABEL[kind],
    value: job.query,
    searchedAt: job.searchedAt,
    answeredAt: job.answeredAt,
    reusedFrom: job.reusedFrom,
    generatedAt: job.generatedAt,
    account: job.account,
    lookupId: job.lookupId,
    reportId: job.reportId,
    caseReference: job.caseReference,
    legalBasis: job.legalBasis ?? null,
    sandbox: job.sandbox,
    extra: [
      [
        messages.sources.heading,
        [text(sources.total ? sources.summary : messages.sources.none, STYLE.value)],
      ],
    ],
  });

  const values = PROFILE_SECTIONS.reduce(
    (sum, section) => sum + sectionItems(job.profile, section).length,
    0,
  );
  writer.tiles([
    {
      label: 'Sources answered',
      value: sources.total ? `${sources.answered} of ${sources.total}` : '—',
      tone: sources.answered < sources.total ? 'warn' : 'default',
    },
    { label: 'Profile values', value: thousands(values) },
    kind === 'tel'
      ? {
          label: 'Names found',
          value: thousands(
            job.analysis
              ? (job.analysis.attributes.find((a) => a.attribute === 'Name')?.values.length ?? 0)
              : groupEntries(list(job.profile.names)).length,
          ),
        }
      : {
          label: 'Breaches',
          value: thousands(job.breaches.length),
          tone: job.breaches.length ? 'warn' : 'default',
        },
    { label: 'Extra records', value: thousands(job.extraRecords.length) },
  ]);

  // The answer first: the merged values, each once, with where each came from.
  if (job.analysis) drawMergedValues(writer, job.analysis, MERGED_TITLE);
  if (kind === 'tel') drawHighlights(writer, job);
  drawProfile(writer, job.profile);
  if (kind === 'email') {
    drawBreaches(writer, job);
    drawRegisteredSites(writer, job);
  }
  drawExtraRecords(writer, job.extraRecords);
  drawSources(writer, sources);
  drawAbout(writer, { reportId: job.reportId, account: job.account });
}
