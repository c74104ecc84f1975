import {
  analyzePhoneLookup,
  extraRecords,
  mergePhoneProfile,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  phoneHighlights,
  sourceStatusOf,
} from '@footprint/domain';
import { type ReportHtml, renderLookupHtml } from '../../apps/server/src/modules/reports/render/html.ts';
import type { LookupReportJob } from '../../apps/server/src/modules/reports/render/types.ts';
import { sandboxPayload } from '../../apps/server/src/sandbox/index.ts';

/**
 * The rich demo phone's report job, built from the sandbox as the server builds it (reports/service.ts):
 * the merged profile, its analysis (the 'Merged profile' section), the highlights and the sources.
 */
export function richPhoneJob(): LookupReportJob {
  const response: Partial<PhoneLookupResponse> & { errors: Record<string, string> } = { errors: {} };
  for (const source of PHONE_SOURCES) {
    try {
      (response as Record<string, unknown>)[source] = sandboxPayload(source, {
        kind: 'tel',
        value: '919876543210',
      });
    } catch (error) {
      response.errors[source] = (error as Error).message;
    }
  }
  const sourceStatus = sourceStatusOf('tel', {
    payloads: response,
    errors: response.errors,
    sandbox: true,
  }).status;
  return {
    template: 'lookup',
    reportId: '75c1f2fc-b02a-4f12-b138-b005ce23d03e',
    lookupId: '363bf2c8-e801-49e0-9c3f-c1e408754ec2',
    generatedAt: '2026-11-21T09:55:50.000Z',
    searchedAt: '2026-11-21T09:55:50.000Z',
    account: { name: 'Bench Investigator', email: 'bench@example.test' },
    caseReference: null,
    sandbox: true,
    kind: 'tel',
    query: '+91 9876543210',
    profile: mergePhoneProfile(response),
    analysis: analyzePhoneLookup(response, { sourceStatus, answeredAt: '2026-11-21T09:55:51.000Z' }),
    highlights: phoneHighlights(response),
    breaches: [],
    registeredSites: [],
    extraRecords: extraRecords(response.osintData),
    sourceErrors: response.errors,
    sourceStatus,
  };
}

/**
 * The same report as HTML for Chromium's page.pdf: drawn by the product's own report sections on an
 * HTML surface (apps/server reports/render/html.ts), so the two cannot drift apart.
 */
export function richPhoneHtml(job: LookupReportJob): ReportHtml {
  return renderLookupHtml(job);
}
