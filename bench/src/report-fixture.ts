import {
  extraRecords,
  mergePhoneProfile,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
  phoneHighlights,
  sourceStatusOf,
} from '@footprint/domain';
import type { LookupReportJob } from '../../apps/server/src/modules/reports/render/types.ts';
import { sandboxPayload } from '../../apps/server/src/sandbox/index.ts';

/** The rich demo phone's report job, built from the sandbox exactly as the server builds it. */
export function richPhoneJob(): LookupReportJob {
  const response: Partial<PhoneLookupResponse> = { errors: {} };
  for (const source of PHONE_SOURCES) {
    try {
      (response as Record<string, unknown>)[source] = sandboxPayload(source, {
        kind: 'tel',
        value: '919876543210',
      });
    } catch {}
  }
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
    highlights: phoneHighlights(response),
    breaches: [],
    registeredSites: [],
    extraRecords: extraRecords(response.osintData),
    sourceErrors: {},
    sourceStatus: sourceStatusOf('tel', { payloads: response, errors: {}, sandbox: true }).status,
  };
}

const esc = (v: string) =>
  v.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The same content as HTML, for Chromium's page.pdf: same sections, tables, footer text. */
export function richPhoneHtml(job: LookupReportJob): string {
  const sections = PROFILE_SECTIONS.map(({ key, title }) => {
    const entries = job.profile[key] as Array<{
      value?: string;
      source: string;
      key?: string;
      platform?: string;
      title?: string;
      degree?: string;
    }>;
    if (!entries?.length) return '';
    const rows = entries
      .map(
        (e) =>
          `<tr><td>${esc(e.key ? `${e.key}: ` : '')}${esc(String(e.value ?? e.platform ?? e.title ?? e.degree ?? ''))}</td><td><span class="chip">${esc(e.source)}</span></td></tr>`,
      )
      .join('');
    return `<h3>${esc(title)}</h3><table><thead><tr><th>Value</th><th>Source</th></tr></thead><tbody>${rows}</tbody></table>`;
  }).join('');
  const records = job.extraRecords
    .map(
      (r) =>
        `<h4>${esc(r.name ?? 'Unknown User')}</h4><table>${r.additional.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body{font-family:'Noto Sans',sans-serif;font-size:10pt;color:#0f172a;margin:0}
    header{background:#0b1220;color:#fff;padding:12px 24px;font-weight:bold}
    main{padding:16px 32px} h1{font-size:22pt} h3{border-bottom:2px solid #0e7490;padding-bottom:4px}
    table{width:100%;border-collapse:collapse;margin-bottom:12px} td,th{border-bottom:1px solid #e2e8f0;padding:4px;text-align:left}
    .chip{background:#ecfeff;border-radius:8px;padding:1px 6px;font-size:8pt}
    .banner{background:#fef3c7;border:1px solid #f59e0b;padding:8px}
  </style></head><body><header>Footprint — Footprint lookup report</header><main>
  <h1>Footprint lookup report</h1><h2>${esc(job.query)}</h2><p class="banner">Sandbox data — synthetic</p>
  <p>Run by ${esc(job.account.name)} (${esc(job.account.email)}) · Lookup ${job.lookupId} · Report ${job.reportId}</p>
  <h2>Profile summary</h2>${sections}<h2>Extra records</h2>${records}</main></body></html>`;
}
