import {
  EMAIL_SOURCES,
  type EmailLookupResponse,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  type SourceStatus,
  sourceModeText,
  sourceStatusText,
} from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { answerPanel, emailParts, phoneParts, showsSynthetic } from '../src/features/results/sourcePanel.ts';

const sandboxOk: SourceStatus = { status: 'ok', mode: 'sandbox' };
const notConfigured: SourceStatus = {
  status: 'not_configured',
  mode: 'not_configured',
  message: 'Not configured in this deployment.',
};

/** A phone answer with every source answered from the sandbox, then `patch` over the statuses. */
function phoneAnswer(patch: Record<string, SourceStatus>, extra: Partial<PhoneLookupResponse> = {}) {
  const source_status = {
    ...Object.fromEntries(PHONE_SOURCES.map((source) => [source, sandboxOk])),
    ...patch,
  };
  return {
    wpData: { pushname: 'Rohan' },
    errors: {},
    credits: 9,
    sandbox: true,
    source_status,
    ...extra,
  } as unknown as PhoneLookupResponse;
}

describe('the source panel of a phone answer', () => {
  it('counts the sources that answered and says the rest by state, in list order', () => {
    const panel = answerPanel(
      'tel',
      phoneParts(
        phoneAnswer({
          telData: notConfigured,
          sbData: notConfigured,
          tcData: { status: 'failed', mode: 'live', vendor: 'Twilio', message: 'Source failed to answer.' },
          hlrData: { status: 'not_found', mode: 'live', vendor: 'HLR Lookups', message: 'No record found.' },
          smData: { status: 'timed_out', mode: 'sandbox', message: 'Source did not answer in time.' },
          allData: {
            status: 'rate_limited',
            mode: 'sandbox',
            message: 'Source is rate limited; try again later.',
          },
        }),
      ),
    );
    expect(panel).not.toBeNull();
    expect(panel!.total).toBe(11);
    expect(panel!.answered).toBe(5);
    expect(panel!.summary).toBe(
      '5 of 11 sources answered · 1 failed · 1 timed out · 1 rate limited · 2 not configured · 1 not found',
    );
    expect(panel!.lines.map((line) => [line.label, line.stateText])).toEqual([
      ['Caller ID', 'Failed'],
      ['Social Media', 'Timed out'],
      ['Caller Apps', 'Rate limited'],
      ['Gov bank records', 'Not configured'],
      ['Telegram', 'Not configured'],
      ['ISP Response', 'Not found'],
      ['WhatsApp', 'Answered'],
      ['OSINT', 'Answered'],
      ['Gov identity records', 'Answered'],
      ['Gov UPI records', 'Answered'],
      ['Gov vehicle records', 'Answered'],
    ]);
  });

  it('names the vendor of a live source, the sandbox, or the missing vendor', () => {
    const panel = answerPanel(
      'tel',
      phoneParts(
        phoneAnswer({
          wpData: { status: 'ok', mode: 'live', vendor: 'Example Vendor' },
          hlrData: { status: 'ok', mode: 'live' },
          telData: notConfigured,
        }),
      ),
    )!;
    const line = (label: string) => panel.lines.find((entry) => entry.label === label);
    expect(line('WhatsApp')?.modeText).toBe('Live: Example Vendor');
    expect(line('ISP Response')?.modeText).toBe('Live');
    expect(line('OSINT')?.modeText).toBe('Sandbox (synthetic data)');
    expect(line('Telegram')?.modeText).toBe('No vendor configured');
  });

  it('keeps a message only when it says more than the state', () => {
    const panel = answerPanel(
      'tel',
      phoneParts(
        phoneAnswer({
          tcData: { status: 'failed', mode: 'live', message: 'Source temporarily unavailable.' },
          smData: { status: 'timed_out', mode: 'live', message: 'Source did not answer in time.' },
          telData: notConfigured,
          allData: { status: 'not_found', mode: 'sandbox', message: 'No caller app knows this number.' },
        }),
      ),
    )!;
    const line = (label: string) => panel.lines.find((entry) => entry.label === label)!;
    expect(line('Caller ID')).toMatchObject({
      statusText: 'Failed: Source temporarily unavailable.',
      detail: 'Source temporarily unavailable.',
    });
    expect(line('Social Media').statusText).toBe('Timed out');
    expect(line('Social Media').detail).toBeUndefined();
    expect(line('Telegram').detail).toBeUndefined();
    expect(line('Caller Apps').statusText).toBe('Not found: No caller app knows this number.');
  });

  it('rebuilds the statuses of an answer stored before they were kept, from its payloads and errors', () => {
    const old = {
      wpData: { pushname: 'Rohan' },
      hlrData: 'ISP payload',
      errors: {
        tcData: 'Source failed to answer.',
        smData: 'Source did not answer in time.',
        allData: 'No caller app knows this number.',
      },
      credits: 3,
      sandbox: true,
    } as unknown as PhoneLookupResponse;
    const panel = answerPanel('tel', phoneParts(old))!;
    expect(panel.derived).toBe(true);
    expect(panel.summary).toBe('2 of 5 sources answered · 1 failed · 1 timed out · 1 not found');
    expect(panel.lines.map((line) => [line.source, line.state, line.mode])).toEqual([
      ['tcData', 'failed', 'sandbox'],
      ['smData', 'timed_out', 'sandbox'],
      ['allData', 'not_found', 'sandbox'],
      ['wpData', 'ok', 'sandbox'],
      ['hlrData', 'ok', 'sandbox'],
    ]);
    // Without the sandbox flag, every source counted as live (no vendor name is known).
    const live = answerPanel('tel', phoneParts({ ...old, sandbox: false }))!;
    expect(new Set(live.lines.map((line) => line.modeText))).toEqual(new Set(['Live']));
  });

  it('has no panel for an answer that tells nothing of its sources, and drops malformed statuses', () => {
    const bare = { errors: {}, credits: 1 } as unknown as PhoneLookupResponse;
    expect(answerPanel('tel', phoneParts(bare))).toBeNull();
    const odd = phoneAnswer({}, {
      source_status: { wpData: { status: 'ok', mode: 'live' }, hlrData: { status: 'weird', mode: 'live' } },
    } as unknown as Partial<PhoneLookupResponse>);
    const panel = answerPanel('tel', phoneParts(odd))!;
    expect(panel.derived).toBe(false);
    expect(panel.lines.map((line) => line.source)).toEqual(['wpData']);
    expect(panel.summary).toBe('1 of 1 source answered');
  });
});

describe('the source panel of an e-mail answer', () => {
  it('reads the payloads and errors under data, the statuses beside it', () => {
    const response = {
      data: { hibpData: [], errors: {} },
      credits: 4,
      sandbox: false,
      source_status: {
        ...Object.fromEntries(EMAIL_SOURCES.map((source) => [source, notConfigured])),
        hibpData: { status: 'ok', mode: 'live', vendor: 'Have I Been Pwned' },
      },
    } as unknown as EmailLookupResponse;
    const panel = answerPanel('email', emailParts(response))!;
    expect(panel.summary).toBe(
      `1 of ${EMAIL_SOURCES.length} sources answered · ${EMAIL_SOURCES.length - 1} not configured`,
    );
    expect(panel.lines.at(-1)).toMatchObject({ label: 'Breach Data', modeText: 'Live: Have I Been Pwned' });
    expect(showsSynthetic(emailParts(response))).toBe(false);

    const old = { data: { hibpData: [], errors: { holeheData: 'Source failed to answer.' } }, credits: 1 };
    const derived = answerPanel('email', emailParts(old as unknown as EmailLookupResponse))!;
    expect(derived.lines.map((line) => [line.label, line.stateText, line.modeText])).toEqual([
      ['Registered Sites', 'Failed', 'Live'],
      ['Breach Data', 'Answered', 'Live'],
    ]);
  });
});

describe('the sandbox banner', () => {
  it('shows only when a sandbox source answered with a payload', () => {
    expect(showsSynthetic(phoneParts(phoneAnswer({})))).toBe(true);
    const liveValues = phoneAnswer({
      ...Object.fromEntries(PHONE_SOURCES.map((source) => [source, { status: 'ok', mode: 'live' }])),
      telData: { status: 'not_found', mode: 'sandbox', message: 'No record found.' },
      tcData: { status: 'failed', mode: 'sandbox', message: 'Source failed to answer.' },
    });
    // The answer's own flag says sandbox (a sandbox source answered "no record"), yet nothing shown is.
    expect(liveValues.sandbox).toBe(true);
    expect(showsSynthetic(phoneParts(liveValues))).toBe(false);
  });

  it('falls back to the sandbox flag of an answer without statuses', () => {
    expect(showsSynthetic({ status: undefined, sandbox: true })).toBe(true);
    expect(showsSynthetic({ status: undefined, sandbox: false })).toBe(false);
    expect(showsSynthetic({ status: 'garbage', sandbox: true })).toBe(true);
    expect(showsSynthetic({ status: {}, sandbox: true })).toBe(false);
  });
});

describe('the status words the PDF shares', () => {
  it('say a state with its message and who answers', () => {
    expect(sourceStatusText({ status: 'ok', message: 'ignored' })).toBe('Answered');
    expect(sourceStatusText({ status: 'rate_limited' })).toBe('Rate limited');
    expect(sourceStatusText({ status: 'failed', message: '  Vendor refused our key.  ' })).toBe(
      'Failed: Vendor refused our key.',
    );
    expect(sourceModeText({ mode: 'live', vendor: ' ' })).toBe('Live');
    expect(sourceModeText({ mode: 'sandbox', vendor: 'ignored' })).toBe('Sandbox (synthetic data)');
  });
});
