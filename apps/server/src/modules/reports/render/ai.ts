/**
 * The AI report ('AI Report', spec §2.5): the analysis computed from the merged profile (corroborated
 * and conflicting attributes with a confidence each, exposure, timeline, next steps) and a narrative,
 * saying plainly which writer wrote the narrative.
 */
import { profileCounts } from '@footprint/domain';
import { clean, count, readableDay, thousands } from './format.ts';
import { drawAbout, drawCover, sourceChips } from './frame.ts';
import { COLOR, type Column, chip, gap, type Row, type Span, STYLE, text, type Writer } from './layout.ts';
import { drawMergedValues } from './merged.ts';
import type { AiReportJob, AiReportWriter, ProfileAnalysis } from './types.ts';

export const AI_TITLE = 'Footprint AI analysis report';

const KIND_LABEL = { tel: 'Phone number', email: 'E-mail address' } as const;

export function writerLine(writer: AiReportWriter): string {
  if (writer.kind === 'llm') {
    const model = clean(writer.model, { max: 120 });
    return `LLM (model ${model || 'not stated'})`;
  }
  return 'deterministic writer (no LLM configured)';
}

function drawNarrative(writer: Writer, narrative: string): void {
  const paragraphs = clean(narrative, { multiline: true, max: 20_000 })
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  writer.heading('Narrative', { keep: 50 });
  if (paragraphs.length === 0) {
    writer.paragraph([text('No narrative was written.', { ...STYLE.narrative, color: COLOR.faint })], {
      after: 4,
    });
    return;
  }
  for (const paragraph of paragraphs) writer.paragraph([text(paragraph, STYLE.narrative)], { after: 7 });
}

function drawAttributes(writer: Writer, analysis: ProfileAnalysis): void {
  drawMergedValues(writer, analysis, 'Attributes');
}

function drawExposure(writer: Writer, analysis: ProfileAnalysis): void {
  const exposure = analysis.exposure ?? {
    breaches: 0,
    breachNames: [],
    sensitiveBreaches: 0,
    registeredSites: 0,
    publicProfiles: [],
    dataClasses: [],
  };
  const profiles = (exposure.publicProfiles ?? []).filter((p) => clean(p.platform));
  const classes = (exposure.dataClasses ?? []).map((c) => clean(c, { max: 80 })).filter(Boolean);
  const names = (exposure.breachNames ?? []).map((n) => clean(n, { max: 120 })).filter(Boolean);
  writer.heading('Exposure', { keep: 80 });
  writer.tiles([
    {
      label: 'Breaches',
      value: thousands(exposure.breaches ?? 0),
      note: exposure.sensitiveBreaches ? `${exposure.sensitiveBreaches} sensitive` : undefined,
      tone: exposure.breaches ? 'warn' : 'default',
    },
    { label: 'Registered sites', value: thousands(exposure.registeredSites ?? 0) },
    { label: 'Public profiles', value: thousands(profiles.length) },
    { label: 'Data classes exposed', value: thousands(classes.length) },
  ]);
  if (names.length) {
    writer.paragraph([text('Breaches: ', STYLE.key), text(names.join(', '), STYLE.body)], { after: 5 });
  }
  if (classes.length) {
    writer.paragraph(
      [
        text('Exposed data classes: ', STYLE.key),
        ...classes.flatMap((c, i) => [...(i ? [gap(3)] : []), chip(c, COLOR.redFill, COLOR.red, 7)]),
      ],
      { after: 6 },
    );
  }
  if (profiles.length) {
    const columns: Column[] = [
      { header: 'Public profile', weight: 30 },
      { header: 'Link', weight: 70 },
    ];
    const rows: Row[] = profiles.map((p) => ({
      cells: [
        [text(clean(p.platform, { max: 200 }), STYLE.bodyBold)],
        p.url
          ? [text(clean(p.url), { ...STYLE.body, size: 8, color: COLOR.accent })]
          : [text('—', { ...STYLE.body, color: COLOR.faint })],
      ],
    }));
    writer.space(4);
    writer.table({ columns, rows, title: 'Public profiles' });
  }
  if (!names.length && !classes.length && !profiles.length && !exposure.registeredSites) {
    writer.paragraph([text('No exposure was found in the sources.', { ...STYLE.body, color: COLOR.faint })]);
  }
}

function drawTimeline(writer: Writer, analysis: ProfileAnalysis): void {
  const events = (analysis.timeline ?? []).filter((e) => clean(e.event)).slice(0, 500);
  const columns: Column[] = [
    { header: 'Date', weight: 17 },
    { header: 'Event', weight: 61 },
    { header: 'Source', weight: 22 },
  ];
  const rows: Row[] = events.map((e) => ({
    cells: [
      [text(readableDay(clean(e.date, { max: 40 })) || '—', STYLE.bodyBold)],
      [text(clean(e.event), STYLE.body)],
      clean(e.source) ? sourceChips([clean(e.source, { max: 60 })]) : [text('—', STYLE.body)],
    ],
  }));
  writer.heading('Timeline', {
    note: events.length ? count(events.length, 'event') : undefined,
    keep: rows.length ? writer.keepFor({ columns, rows }) : 30,
  });
  if (rows.length === 0) {
    writer.paragraph([
      text('No dated events were found in the sources.', { ...STYLE.body, color: COLOR.faint }),
    ]);
    return;
  }
  writer.table({ columns, rows, title: 'Timeline' });
}

function drawNextSteps(writer: Writer, analysis: ProfileAnalysis): void {
  const steps = (analysis.nextSteps ?? [])
    .map((s) => clean(s))
    .filter(Boolean)
    .slice(0, 100);
  const columns: Column[] = [{ weight: 4 }, { weight: 96 }];
  const rows: Row[] = steps.map((step, i) => ({
    cells: [
      [text(`${i + 1}.`, { ...STYLE.value, color: COLOR.accent, weight: 'bold' })],
      [text(step, STYLE.value)],
    ],
  }));
  const list = { columns, rows, rules: false, padX: 2, padY: 3 };
  writer.heading('Suggested next steps', { keep: rows.length ? writer.keepFor(list, 260) : 30 });
  if (rows.length === 0) {
    writer.paragraph([text('No next steps were suggested.', { ...STYLE.body, color: COLOR.faint })]);
    return;
  }
  writer.table({ ...list, title: 'Suggested next steps' });
}

export function drawAiReport(writer: Writer, job: AiReportJob): void {
  const kind = job.kind === 'email' ? 'email' : 'tel';
  const analysis = job.analysis;
  drawCover(writer, {
    title: AI_TITLE,
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
  });

  const note = clean(job.writer.note, { max: 400 });
  const writerSpans: Span[] = [
    text('Narrative written by: ', { size: 9.5, color: COLOR.navy, weight: 'bold' }),
    text(writerLine(job.writer), { size: 9.5, color: COLOR.navy }),
    text(
      '\nThe narrative is machine-written from the analysis below and can be wrong. The attribute table, confidences, exposure and timeline are computed by Footprint’s rules from the merged profile, not by the writer.',
      { ...STYLE.small, color: COLOR.body },
    ),
  ];
  if (note) writerSpans.push(text(`\nNote: ${note}`, STYLE.small));
  writer.notice(writerSpans, { fill: COLOR.accentSoft, bar: COLOR.accent }, 12);

  // The same counts as the results page and the lookup PDF (domain profileCounts).
  const counts = profileCounts(analysis.attributes ?? []);
  writer.tiles([
    { label: 'Facts', value: thousands(counts.facts) },
    { label: 'Corroborated', value: thousands(counts.corroborated), tone: 'good' },
    {
      label: 'In conflict',
      value: thousands(counts.conflicts),
      tone: counts.conflicts > 0 ? 'warn' : 'default',
    },
    { label: 'Breaches', value: thousands(analysis.exposure?.breaches ?? 0) },
  ]);

  drawNarrative(writer, job.narrative);
  drawAttributes(writer, analysis);
  drawExposure(writer, analysis);
  drawTimeline(writer, analysis);
  drawNextSteps(writer, analysis);
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra: `The narrative was written by ${
      job.writer.kind === 'llm' ? 'a language model' : 'Footprint’s deterministic writer'
    } from the analysis in this report.`,
  });
}
