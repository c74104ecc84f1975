/**
 * The report pool on its own: real worker threads drawing real reports. A full queue refuses at once
 * (ReportsBusyError with a Retry-After), a lookup report sent as its stored answer is merged in the
 * worker into exactly the PDF the request thread would draw, and the bytes come back whole.
 */
import { PHONE_SOURCES, type PhoneLookupResponse, sourceStatusOf } from '@footprint/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { jobOf, type LookupReportSource } from '../../src/modules/reports/job.ts';
import { createReportPool, ReportsBusyError } from '../../src/modules/reports/pool.ts';
import { renderReport } from '../../src/modules/reports/render/index.ts';
import { warmUp } from '../../src/modules/reports/warm-up.ts';
import { sandboxPayload } from '../../src/sandbox/index.ts';
import { pdfText } from '../support/pdf.ts';

/** The rich demo phone's stored answer, as the report service sends it to the pool. */
function richPhoneSource(): LookupReportSource {
  const payloads: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const source of PHONE_SOURCES) {
    try {
      payloads[source] = sandboxPayload(source, { kind: 'tel', value: '919876543210' });
    } catch (error) {
      errors[source] = (error as Error).message;
    }
  }
  const response = { ...payloads, errors } as Partial<PhoneLookupResponse>;
  const sourceStatus = sourceStatusOf('tel', { payloads: response, errors, sandbox: true }).status;
  return {
    template: 'lookup-source',
    reportId: '3d1e7a52-94c3-4f0e-8b6a-5f2c1d0e9a7b',
    lookupId: 'a8f4c2e1-6b3d-4e5f-9a0b-7c8d9e0f1a2b',
    generatedAt: '2026-11-25T08:00:00.000Z',
    searchedAt: '2026-11-25T07:59:58.000Z',
    answeredAt: '2026-11-25T07:59:59.000Z',
    account: { name: 'Pool Tester', email: 'pool.tester@example.test' },
    sandbox: true,
    kind: 'tel',
    query: '+91 9876543210',
    caseReference: 'CR-POOL-1',
    result: { payloads, errors },
    sourceErrors: errors,
    sourceStatus,
  };
}

const pool = createReportPool({ threads: 1, queue: 0 });
afterAll(() => pool.close());

describe('report pool', () => {
  it('merges a stored answer in the worker into the same PDF the request thread would draw', async () => {
    const source = richPhoneSource();
    const [fromWorker, here] = await Promise.all([pool.render(source), renderReport(jobOf(source))]);
    expect(fromWorker.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fromWorker.equals(here)).toBe(true);
    const text = await pdfText(fromWorker);
    expect(text).toContain('+91 9876543210');
    expect(text).toContain('CR-POOL-1');
    expect(text).toContain('Merged profile');
  });

  it('refuses a report at once when every thread is busy and the queue is full, then takes the next', async () => {
    const source = richPhoneSource();
    const first = pool.render(source);
    expect(pool.busy()).toBeInstanceOf(ReportsBusyError);
    const refused = await pool.render(source).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ReportsBusyError);
    expect((refused as ReportsBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await first).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pool.busy()).toBeUndefined();
    expect((await pool.render(source)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('a warm pool (REPORT_WARM) draws its throwaway reports first, then the same bytes as a cold one', async () => {
    await expect(warmUp()).resolves.toBeUndefined();
    const warm = createReportPool({ threads: 1, queue: 1, warm: true });
    try {
      const source = richPhoneSource();
      const [fromWarm, here] = await Promise.all([warm.render(source), renderReport(jobOf(source))]);
      expect(fromWarm.equals(here)).toBe(true);
    } finally {
      await warm.close();
    }
  }, 60_000);
});
