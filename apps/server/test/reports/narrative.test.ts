import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  EMAIL_SOURCES,
  type EmailLookupData,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  type ProfileAnalysis,
} from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanNarrative,
  createLlmWriter,
  LlmError,
  type LlmFailureReason,
  llmWriterFromConfig,
  MAX_NARRATIVE_CHARS,
  type NarrativeInput,
  narrativeFor,
  writeNarrative,
} from '../../src/modules/reports/narrative/index.ts';
import { DEMO, sandboxPayload } from '../../src/sandbox/index.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

// ---------- inputs built from the sandbox's demo identities ----------

function lookup(kind: 'tel' | 'email', value: string) {
  const sources: readonly string[] = kind === 'tel' ? PHONE_SOURCES : EMAIL_SOURCES;
  const answer: Record<string, unknown> = { errors: {} };
  for (const source of sources) {
    try {
      answer[source] = sandboxPayload(source, { kind, value });
    } catch (error) {
      (answer.errors as Record<string, string>)[source] = (error as Error).message;
    }
  }
  return answer;
}

const richPhone = () => lookup('tel', DEMO.richPhone) as Partial<PhoneLookupResponse>;

function conflictingPhone(): Partial<PhoneLookupResponse> {
  const answer = richPhone();
  // The caller-id directories name someone else entirely.
  answer.tcData = { data: { basicInfo: { name: { fullName: 'Priya Sharma' } } } };
  answer.allData = { callapp: { name: 'Priya Sharma' }, eyecon: 'PRIYA SHARMA' };
  answer.smData = null;
  answer.telData = { found: false };
  answer.wpData = { number: DEMO.richPhone, isUser: true };
  answer.osintData = { data: [] };
  return answer;
}

const phoneInput = (answer = richPhone(), failed: string[] = []): NarrativeInput => ({
  kind: 'tel',
  query: DEMO.richPhone,
  analysis: analyzePhoneLookup(answer),
  sourcesAnswered: 11 - failed.length,
  sourcesFailed: failed,
});

const emailInput = (value: string = DEMO.richEmail): NarrativeInput => ({
  kind: 'email',
  query: value,
  analysis: analyzeEmailLookup(lookup('email', value) as Partial<EmailLookupData>),
  sourcesAnswered: 8,
  sourcesFailed: [],
});

const paragraphs = (text: string) => text.split(/\n\n/);

// ---------- the LLM writer against a fake OpenAI-compatible endpoint ----------

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => sendJson(res, 500, {}));
});
afterAll(() => upstream.close());

const completion = (content: unknown, model = 'gpt-4o-mini-2024-07-18') => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_760_000_000,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 900, completion_tokens: 300, total_tokens: 1200 },
});

const writer = (overrides: Partial<Parameters<typeof createLlmWriter>[0]> = {}) =>
  createLlmWriter({
    baseUrl: `${upstream.url}/v1`,
    apiKey: 'sk-test-key',
    model: 'gpt-4o-mini',
    timeoutMs: 5000,
    ...overrides,
  });

const FALLBACK = (reason: LlmFailureReason) =>
  `LLM unavailable (${reason}); narrative written by the deterministic writer.`;

async function expectFallback(reason: LlmFailureReason, llm = writer()) {
  const input = phoneInput();
  const narrative = await narrativeFor(input, llm);
  expect(narrative.writer).toEqual({ kind: 'deterministic', note: FALLBACK(reason) });
  expect(narrative.text).toBe(writeNarrative(input));
  await expect(llm.write(input)).rejects.toMatchObject({ name: 'LlmError', reason });
}

describe('LLM narrative writer', () => {
  it('posts an OpenAI-style chat completion and uses its answer', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        completion(
          'The data suggests the number is used by one person.\n\n\n\nSecond paragraph.\u0007\u202e ',
        ),
      ),
    );
    const before = upstream.requests.length;
    const input = phoneInput();
    const narrative = await narrativeFor(input, writer());

    expect(narrative).toEqual({
      text: 'The data suggests the number is used by one person.\n\nSecond paragraph.',
      writer: { kind: 'llm', model: 'gpt-4o-mini-2024-07-18' },
    });
    expect(upstream.requests).toHaveLength(before + 1);
    const req = upstream.requests[before]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-key');
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body);
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(1200);
    expect(body.messages).toHaveLength(2);
    const [system, user] = body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/only the facts/i);
    expect(system.content).toMatch(/protected characteristics/i);
    expect(system.content).toMatch(/plain text/i);
    expect(system.content).toMatch(/3 to 6 paragraphs/);
    expect(user.role).toBe('user');
    const payload = JSON.parse(user.content);
    expect(payload).toEqual({
      kind: 'tel',
      query: DEMO.richPhone,
      sourcesAnswered: 11,
      sourcesFailed: [],
      // The values without their provenance: record names and times are for the report's reader.
      analysis: {
        ...input.analysis,
        attributes: input.analysis.attributes.map((a) => ({
          ...a,
          values: a.values.map(({ value, sources, confidence }) => ({ value, sources, confidence })),
        })),
      },
    });
    expect(user.content).not.toContain('"provenance"');
    // Compact JSON: no pretty-printing whitespace.
    expect(user.content).toBe(JSON.stringify(payload));
  });

  it('sends no Authorization header without a key, honours maxTokens and a trailing slash', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, completion('Text.', '')));
    const before = upstream.requests.length;
    const llm = createLlmWriter({
      baseUrl: `${upstream.url}/v1/`,
      model: 'local-model',
      timeoutMs: 5000,
      maxTokens: 333,
    });
    // No model in the answer: the configured one is reported.
    await expect(llm.write(emailInput())).resolves.toEqual({ text: 'Text.', model: 'local-model' });
    const req = upstream.requests[before]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.body).max_tokens).toBe(333);
    expect(JSON.parse(JSON.parse(req.body).messages[1].content).kind).toBe('email');
  });

  it('accepts content given as text parts', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        completion([
          { type: 'text', text: 'One.' },
          { type: 'text', text: '\n\nTwo.' },
        ]),
      ),
    );
    await expect(writer().write(phoneInput())).resolves.toMatchObject({ text: 'One.\n\nTwo.' });
  });

  it('caps a long answer', async () => {
    upstream.setHandler((_req, res) =>
      sendJson(res, 200, completion(`${'A sentence of the narrative. '.repeat(1000)}`)),
    );
    const { text } = await writer().write(phoneInput());
    expect(text.length).toBeLessThanOrEqual(MAX_NARRATIVE_CHARS);
    expect(text.endsWith('…')).toBe(true);
  });

  it('falls back on an HTTP error, noting it', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 500, { error: { message: 'boom' } }));
    await expectFallback('http');
    upstream.setHandler((_req, res) => sendJson(res, 401, { error: { message: 'bad key' } }));
    const error = await writer()
      .write(phoneInput())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ reason: 'http', status: 401 });
  });

  it('falls back on malformed answers', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, '{"choices": [ {"message": '));
    await expectFallback('malformed');
    for (const body of [
      {},
      { choices: 'none' },
      [1, 2],
      { choices: [{ message: { content: 42 } }] },
      'null',
    ]) {
      upstream.setHandler((_req, res) => sendJson(res, 200, typeof body === 'string' ? body : body));
      await expect(writer().write(phoneInput())).rejects.toMatchObject({ reason: 'malformed' });
    }
  });

  it('falls back on an answer larger than the cap', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, completion('x'.repeat(1_100_000))));
    await expectFallback('malformed');
    // Without a content-length, the cap applies while reading.
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[{"message":{"content":"');
      const chunk = 'y'.repeat(64 * 1024);
      for (let i = 0; i < 20; i++) res.write(chunk);
      res.end('"}}]}');
    });
    await expect(writer().write(phoneInput())).rejects.toMatchObject({ reason: 'malformed' });
  });

  it('falls back on an empty answer', async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, { id: 'x', choices: [] }));
    await expectFallback('empty');
    for (const content of ['', '   \n\n ', '\u0000\u0007\u202e', null]) {
      upstream.setHandler((_req, res) => sendJson(res, 200, completion(content)));
      await expect(writer().write(phoneInput())).rejects.toMatchObject({ reason: 'empty' });
    }
  });

  it('falls back when the endpoint never answers, at the timeout', async () => {
    upstream.setHandler(() => {
      // Never answers.
    });
    const input = phoneInput();
    const started = performance.now();
    const narrative = await narrativeFor(input, writer({ timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(narrative.writer).toEqual({ kind: 'deterministic', note: FALLBACK('timeout') });
    expect(narrative.text).toBe(writeNarrative(input));
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1000);
  });

  it('times out an answer that stalls halfway through its body', async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices": [');
    });
    const started = performance.now();
    await expect(writer({ timeoutMs: 300 }).write(phoneInput())).rejects.toMatchObject({ reason: 'timeout' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('falls back when the endpoint is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectFallback('unreachable', writer({ baseUrl: `http://127.0.0.1:${port}/v1` }));
  });

  it('falls back when a writer throws something other than an LlmError', async () => {
    const input = phoneInput();
    const reported: LlmError[] = [];
    const narrative = await narrativeFor(
      input,
      { write: () => Promise.reject(new TypeError('bug')) },
      (error) => reported.push(error),
    );
    expect(narrative.writer).toEqual({ kind: 'deterministic', note: FALLBACK('unreachable') });
    expect(reported).toHaveLength(1);
  });

  it('uses the deterministic writer, without a note, when no LLM is configured', async () => {
    const input = emailInput();
    await expect(narrativeFor(input)).resolves.toEqual({
      text: writeNarrative(input),
      writer: { kind: 'deterministic' },
    });
    expect(llmWriterFromConfig(undefined)).toBeUndefined();
    expect(
      llmWriterFromConfig({ baseUrl: upstream.url, apiKey: undefined, model: 'm', timeoutMs: 1000 }),
    ).toBeDefined();
  });
});

describe('cleanNarrative', () => {
  it('keeps paragraphs, drops control and bidi characters and Markdown marks', () => {
    expect(cleanNarrative('## Summary\r\n**Bold** text\u0000 and\u200b more\t end  \n\n\n\nNext.')).toBe(
      'Summary\nBold text and more  end\n\nNext.',
    );
  });

  it('never cuts a surrogate pair in half', () => {
    const text = cleanNarrative(`${'a'.repeat(98)}😀😀😀`, 100);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

// ---------- the deterministic writer ----------

describe('deterministic narrative writer', () => {
  it('is deterministic', () => {
    const input = phoneInput();
    expect(writeNarrative(input)).toBe(writeNarrative(structuredClone(input)));
    expect(writeNarrative(phoneInput())).toBe(writeNarrative(input));
  });

  it('writes 3 to 6 paragraphs for every kind of answer', () => {
    const inputs = [
      phoneInput(),
      phoneInput(conflictingPhone()),
      phoneInput(lookup('tel', DEMO.sparsePhone) as Partial<PhoneLookupResponse>),
      emailInput(),
      emailInput(DEMO.emptyEmail),
    ];
    for (const input of inputs) {
      const parts = paragraphs(writeNarrative(input));
      expect(parts.length).toBeGreaterThanOrEqual(3);
      expect(parts.length).toBeLessThanOrEqual(6);
      for (const part of parts) expect(part.trim()).toBe(part);
      for (const part of parts) expect(part.length).toBeGreaterThan(20);
    }
  });

  it('names the corroborated subject with a confidence word tied to the number', () => {
    const text = writeNarrative(phoneInput(richPhone(), ['tcData', 'Telegram']));
    expect(text).toMatch(/^This report covers a phone-number lookup for \+919876543210\./);
    expect(text).toContain('9 sources answered the lookup; 2 did not (Caller ID and Telegram)');
    expect(text).toContain(
      'The data suggests, with high confidence (0.97), that this number is associated with ROHAN SURESH DESHMUKH',
    );
    expect(text).toContain('date of birth 1990-04-17 (0.86)');
    expect(text).toContain('Resting on a single source, and so unconfirmed');
    expect(text).toContain(
      '(1) Request subscriber details (CAF) from Reliance Jio Infocomm for +919876543210 under the applicable legal process',
    );
    expect(text).toContain('Public profiles were found on WhatsApp, Facebook and Telegram.');
  });

  it('states a conflict instead of an identity', () => {
    const text = writeNarrative(phoneInput(conflictingPhone()));
    expect(text).toContain('The sources disagree about who is behind this number.');
    expect(text).toMatch(
      /ROHAN SURESH DESHMUKH is named by Gov[^;]*\(confidence 0\.\d\d\) and Priya Sharma by Caller ID/,
    );
    expect(text).toContain('no single identity should be attributed to it');
    expect(text).not.toContain('The data suggests, with');
    expect(text).toMatch(/\(1\) Names conflict between /);
  });

  it('summarises breaches, sites and profiles of an e-mail address', () => {
    const text = writeNarrative(emailInput());
    expect(text).toContain('that this e-mail address is associated with ROHAN SURESH DESHMUKH');
    expect(text).toContain('The e-mail address appears in 12 known data breaches (1 flagged sensitive)');
    expect(text).toContain('It is registered on 11 sites checked by the lookup.');
    expect(text).toMatch(/Public profiles were found on LinkedIn, /);
    expect(text).toContain('The 26 dated records run from 2006 to ');
    expect(text).toMatch(/\(1\) Check breaches .* exposed passwords/);
  });

  it('says little was found for an empty answer, and nothing more', () => {
    const input = emailInput(DEMO.emptyEmail);
    const text = writeNarrative(input);
    expect(text).toContain('Little was found.');
    expect(paragraphs(text).length).toBeLessThanOrEqual(4);
    expect(text.length).toBeLessThan(800);
    for (const absent of [
      'confidence',
      'Gov',
      'OSINT',
      'breaches',
      'Public profile',
      'associated with',
      'agree',
    ])
      expect(text).not.toContain(absent);

    const blank: ProfileAnalysis = {
      attributes: [],
      exposure: {
        breaches: 0,
        breachNames: [],
        sensitiveBreaches: 0,
        registeredSites: 0,
        publicProfiles: [],
        dataClasses: [],
      },
      timeline: [],
      nextSteps: [],
    };
    const bare = writeNarrative({
      kind: 'tel',
      query: '919000000000',
      analysis: blank,
      sourcesAnswered: 0,
      sourcesFailed: [],
    });
    expect(bare).toContain('No source answered the lookup.');
    expect(bare).toContain('Little was found.');
    expect(paragraphs(bare)).toHaveLength(3);
  });

  it('states only facts from its input', () => {
    // A made-up analysis with one name and one phone: nothing else may appear.
    const analysis: ProfileAnalysis = {
      attributes: [
        {
          attribute: 'Name',
          values: [{ value: 'Zebulon Quixote', sources: ['Caller ID', 'WhatsApp'], confidence: 0.75 }],
          status: 'corroborated',
        },
        {
          attribute: 'Phone',
          values: [{ value: '+447700900123', sources: ['WhatsApp'], confidence: 0.5 }],
          status: 'single-source',
        },
      ],
      exposure: {
        breaches: 0,
        breachNames: [],
        sensitiveBreaches: 0,
        registeredSites: 0,
        publicProfiles: [],
        dataClasses: [],
      },
      timeline: [],
      nextSteps: ['Corroborate the name before relying on it'],
    };
    const input: NarrativeInput = {
      kind: 'tel',
      query: '447700900123',
      analysis,
      sourcesAnswered: 2,
      sourcesFailed: [],
    };
    const text = writeNarrative(input);
    expect(text).toContain('fair confidence (0.75)');
    expect(text).toContain('Zebulon Quixote');
    expect(text).toContain('Caller ID and WhatsApp agree on this name');
    expect(text).toContain('phone number +447700900123 (0.50) from WhatsApp');
    for (const absent of [
      'breach',
      'registered on',
      'date of birth',
      'address or location',
      'PAN',
      'vehicle',
      'bank',
      'Gov',
      'OSINT',
      'dated records',
      'disagree',
    ])
      expect(text.toLowerCase()).not.toContain(absent.toLowerCase());

    // Every number written comes from the input (counts of its lists aside).
    const known = new Set(
      (JSON.stringify(input).match(/\d+(?:\.\d+)?/g) ?? []).map((n) => Number.parseFloat(n)),
    );
    for (const n of text.match(/\d+(?:\.\d+)?/g) ?? []) {
      const value = Number.parseFloat(n);
      if (value > 10) expect(known.has(value)).toBe(true);
    }
  });

  it('writes numbers that all come from a real analysis', () => {
    const input = phoneInput(richPhone(), ['tcData']);
    const text = writeNarrative(input);
    const known = new Set(
      (JSON.stringify(input).match(/\d+(?:\.\d+)?/g) ?? []).map((n) => Number.parseFloat(n)),
    );
    for (const n of text.match(/\d+(?:\.\d+)?/g) ?? []) {
      const value = Number.parseFloat(n);
      if (value > 10) expect(known.has(value), `number ${n} in the narrative`).toBe(true);
    }
  });

  it('keeps untrusted strings from injecting control characters', () => {
    const input = phoneInput();
    const name = input.analysis.attributes[0]!;
    name.values[0]!.value = 'Evil\u202eName\u0000\nInjected';
    const text = writeNarrative({ ...input, query: 'x\u0007y', sourcesFailed: ['\u0000bad\nsource'] });
    expect(text).not.toMatch(/[^\P{Cc}\n]|\p{Cf}/u);
    expect(text).toContain('Evil Name Injected');
  });
});
