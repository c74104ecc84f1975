/**
 * The case summary of an evidence bundle (GET /api/cases/{id}/bundle): the case and its legal basis,
 * its members, its notes, its searches, the entities they found grouped by type with their sources,
 * and its timeline. Drawn in the same frame as every report (header band, footer with the report id).
 */
import { clean, count, isoUtc, readableDay, readableUtc } from './format.ts';
import { drawAbout, drawSandboxNotice } from './frame.ts';
import {
  COLOR,
  type Column,
  labelled,
  PAGE,
  type Row,
  type Span,
  STYLE,
  text,
  type Writer,
} from './layout.ts';
import type { CaseSummaryJob } from './types.ts';

export const CASE_TITLE = 'Case summary';

const when = (iso: string): Span[] => [
  text(readableUtc(iso), STYLE.value),
  text(`\n${isoUtc(iso)}`, STYLE.small),
];

const person = (who: { name: string; email: string }): Span[] => {
  const name = clean(who.name, { max: 200 });
  const email = clean(who.email, { max: 200 });
  return [text(name || email, STYLE.valueBold), ...(name ? [text(`\n${email}`, STYLE.small)] : [])];
};

/** A timeline date: a day as '18 Apr 2024', a date-time in UTC. */
const timelineDate = (at: string) => (/^\d{4}-\d{2}-\d{2}$/.test(at) ? readableDay(at) : readableUtc(at));

function drawFacts(writer: Writer, job: CaseSummaryJob): void {
  const c = job.case;
  writer.y = PAGE.top + 10;
  writer.paragraph([text(CASE_TITLE, { size: 21, color: COLOR.navy, weight: 'bold', leading: 1.2 })], {
    after: 10,
  });
  writer.paragraph([text('CASE', { ...STYLE.label, size: 8.5, color: COLOR.accent })], { after: 1 });
  writer.paragraph(
    [text(clean(c.title, { max: 300 }), { size: 22, color: COLOR.ink, weight: 'bold', leading: 1.22 })],
    { after: 10 },
  );
  if (job.sandbox) {
    drawSandboxNotice(
      writer,
      'Some searches of this case were answered by Footprint’s sandbox providers: their values describe no real person and must not be used as evidence.',
    );
  }
  const basis = clean(c.legalBasis, { max: 700 });
  const cells: Array<[string, Span[]]> = [
    ['Reference', [text(clean(c.reference, { max: 200 }), STYLE.valueBold)]],
    ['Status', [text(c.status === 'closed' ? 'Closed' : 'Open', STYLE.value)]],
    ['Owner', person(c.owner)],
    ['Opened at', when(c.createdAt)],
    ['Bundle generated at', when(job.generatedAt)],
    ['Generated for', person(job.account)],
    ['Case ID', [text(clean(c.id, { max: 100 }), STYLE.value)]],
    ['Report ID', [text(clean(job.reportId, { max: 100 }), STYLE.value)]],
  ];
  const rows: Row[] = [];
  for (let i = 0; i + 1 < cells.length; i += 2) {
    rows.push({
      cells: [labelled(cells[i]![0], cells[i]![1]), labelled(cells[i + 1]![0], cells[i + 1]![1])],
    });
  }
  writer.table({ columns: [{ weight: 1 }, { weight: 1 }], rows, padX: 0, padY: 6 });
  writer.table({
    columns: [{ weight: 1 }],
    rows: [
      {
        cells: [
          labelled(
            'Legal basis',
            basis
              ? [text(`Legal basis: ${basis}`, STYLE.valueBold)]
              : [text('None recorded', { ...STYLE.value, color: COLOR.faint })],
          ),
        ],
      },
    ],
    padX: 0,
    padY: 6,
  });
  writer.space(6);
}

function drawMembers(writer: Writer, job: CaseSummaryJob): void {
  const columns: Column[] = [
    { header: 'Name', weight: 30 },
    { header: 'E-mail', weight: 40 },
    { header: 'Role', weight: 12 },
    { header: 'Added', weight: 28 },
  ];
  const owner = job.case.owner;
  const rows: Row[] = [
    {
      cells: [
        [text(clean(owner.name, { max: 200 }), STYLE.body)],
        [text(clean(owner.email, { max: 200 }), STYLE.body)],
        [text('Owner', STYLE.bodyBold)],
        [text(readableUtc(job.case.createdAt), STYLE.body)],
      ],
    },
    ...job.members.map((m) => ({
      cells: [
        [text(clean(m.name, { max: 200 }), STYLE.body)],
        [text(clean(m.email, { max: 200 }), STYLE.body)],
        [text('Member', STYLE.body)],
        [text(readableUtc(m.addedAt), STYLE.body)],
      ],
    })),
  ];
  writer.heading('Members', { note: count(rows.length, 'person', 'people'), keep: 60 });
  writer.table({ columns, rows, title: 'Members' });
}

function drawNotes(writer: Writer, job: CaseSummaryJob): void {
  writer.heading('Notes', { note: count(job.notes.length, 'note'), keep: 40 });
  if (job.notes.length === 0) {
    writer.paragraph([text('No notes.', { ...STYLE.body, color: COLOR.faint })], { after: 4 });
    return;
  }
  const columns: Column[] = [
    { header: 'Written by', weight: 28 },
    { header: 'Note', weight: 72 },
  ];
  const rows: Row[] = job.notes.map((note) => ({
    cells: [
      [
        text(clean(note.author.name, { max: 200 }) || clean(note.author.email, { max: 200 }), STYLE.bodyBold),
        text(`\n${readableUtc(note.createdAt)}`, STYLE.small),
      ],
      [text(clean(note.body, { multiline: true, max: 5000 }), STYLE.body)],
    ],
  }));
  writer.table({ columns, rows, title: 'Notes' });
}

function drawSearches(writer: Writer, job: CaseSummaryJob): void {
  writer.heading('Searches', { note: count(job.searches.length, 'search', 'searches'), keep: 40 });
  if (job.searches.length === 0) {
    writer.paragraph([text('No searches are filed under this case.', { ...STYLE.body, color: COLOR.faint })]);
    return;
  }
  const columns: Column[] = [
    { header: '#', weight: 5 },
    { header: 'Search', weight: 55 },
    { header: 'Run at', weight: 24 },
    { header: 'Result', weight: 16 },
  ];
  const rows: Row[] = job.searches.map((s, i) => ({
    cells: [
      [text(String(i + 1), STYLE.body)],
      [
        text(clean(s.label, { max: 400 }), STYLE.body),
        text(`\n${clean(s.lookupId, { max: 60 })}`, STYLE.small),
      ],
      [text(readableUtc(s.createdAt), STYLE.body)],
      [
        text(
          s.kept ? 'In the bundle' : 'Not kept',
          s.kept ? STYLE.body : { ...STYLE.body, color: COLOR.faint },
        ),
      ],
    ],
  }));
  writer.table({ columns, rows, title: 'Searches' });
}

function drawEntities(writer: Writer, job: CaseSummaryJob): void {
  const total = job.entities.reduce((sum, group) => sum + group.items.length, 0);
  writer.heading('Entities', { note: count(total, 'entity', 'entities'), keep: 40 });
  if (total === 0) {
    writer.paragraph([
      text('No entities were read from the searches.', { ...STYLE.body, color: COLOR.faint }),
    ]);
    return;
  }
  const columns: Column[] = [
    { header: 'Value', weight: 40 },
    { header: 'Sources', weight: 38 },
    { header: 'Searches', weight: 10, align: 'right' },
    { header: 'Corroborated', weight: 12 },
  ];
  for (const group of job.entities) {
    const rows: Row[] = group.items.map((e) => ({
      cells: [
        [text(clean(e.value, { max: 300 }), STYLE.body)],
        [text(clean(e.sources.join(', '), { max: 600 }), STYLE.small)],
        [text(String(e.searches), STYLE.body)],
        [text(e.corroborated ? 'Yes' : 'No', e.corroborated ? STYLE.bodyBold : STYLE.body)],
      ],
    }));
    const title = clean(group.type, { max: 60 });
    writer.heading(title, {
      level: 2,
      note: count(rows.length, 'value'),
      keep: writer.keepFor({ columns, rows }, 120),
    });
    writer.table({ columns, rows, title });
  }
}

function drawTimeline(writer: Writer, job: CaseSummaryJob): void {
  writer.heading('Timeline', { note: count(job.timeline.length, 'entry', 'entries'), keep: 40 });
  if (job.timeline.length === 0) {
    writer.paragraph([text('No dated facts.', { ...STYLE.body, color: COLOR.faint })]);
    return;
  }
  const columns: Column[] = [
    { header: 'Date', weight: 24 },
    { header: 'What', weight: 56 },
    { header: 'Source', weight: 20 },
  ];
  const rows: Row[] = job.timeline.map((entry) => ({
    cells: [
      [text(timelineDate(entry.at), STYLE.body)],
      [text(clean(entry.label, { max: 300 }), STYLE.body)],
      [text(clean(entry.source, { max: 100 }), STYLE.small)],
    ],
  }));
  writer.table({ columns, rows, title: 'Timeline' });
}

export function drawCaseSummary(writer: Writer, job: CaseSummaryJob): void {
  drawFacts(writer, job);
  drawMembers(writer, job);
  drawNotes(writer, job);
  drawSearches(writer, job);
  drawEntities(writer, job);
  drawTimeline(writer, job);
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra:
      "This summary is the first file of the case's evidence bundle: the bundle's manifest.json lists every file with its SHA-256, and the bundle's own SHA-256 was recorded when it was generated.",
  });
}
