import { isRecord } from '@footprint/domain';
import { z } from 'zod';
import {
  type Provider,
  type ProviderKind,
  type ProviderQuery,
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
  type VendorInfo,
} from '../types.ts';
import { defineVendor, secret } from '../vendor.ts';
import { fetchJson, retryAfterMs } from './fetch-json.ts';

export interface KycConfig {
  baseUrl: string;
  token: string;
  /** Paths that differ at this vendor, by source key ('verification:employment' → its path). */
  paths?: Readonly<Record<string, string>>;
}

interface Endpoint {
  source: string;
  kind: ProviderKind;
  path: string;
  body: (query: ProviderQuery) => Record<string, unknown>;
}

/** Mobile-linked calls take the 10-digit Indian mobile; other countries are not covered by the vendor. */
const indianMobile = (query: ProviderQuery): string => {
  if (!/^91\d{10}$/.test(query.value))
    throw new SourceNotFoundError('Not available for numbers outside India.');
  return query.value.slice(2);
};

/** Paths and payloads as the vendor documents them for a Surepass-style KYC API. */
const endpoints: Endpoint[] = [
  {
    source: 'sKData',
    kind: 'tel',
    path: 'prefill/prefill-by-mobile',
    body: (q) => ({ mobile: indianMobile(q) }),
  },
  {
    source: 'suData',
    kind: 'tel',
    path: 'bank-verification/find-upi-id',
    body: (q) => ({ mobile_number: indianMobile(q) }),
  },
  {
    source: 'sbData',
    kind: 'tel',
    path: 'mobile-to-bank-details/verification',
    body: (q) => ({ mobile_no: indianMobile(q) }),
  },
  {
    source: 'srData',
    kind: 'tel',
    path: 'rc/mobile-number-to-rc',
    body: (q) => ({ mobile_number: indianMobile(q) }),
  },
  { source: 'rc', kind: 'rc', path: 'rc/rc-full', body: (q) => ({ id_number: q.value }) },
  {
    source: 'upi',
    kind: 'upi',
    path: 'bank-verification/upi-verification',
    body: (q) => ({ upi_id: q.value }),
  },
  {
    source: 'challan',
    kind: 'challan',
    path: 'rc/rc-related/challan-details',
    body: (q) => ({ rc_number: q.value }),
  },
  ...intelEndpoints(),
];

/** A validated form field of a corporate or verification search ('' when absent). */
const field = (q: ProviderQuery, name: string): string => {
  const value = q.params?.[name];
  return typeof value === 'string' ? value : '';
};
const ticked = (q: ProviderQuery, name: string): boolean => q.params?.[name] === true;
/** The optional fields that were filled, under the vendor's names. */
const filled = (q: ProviderQuery, names: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(names)
      .map(([vendor, ours]) => [vendor, field(q, ours)] as const)
      .filter(([, value]) => value !== ''),
  );

/**
 * Corporate and verification searches: one vendor call each, the source key being the query kind.
 * Paths and field names as the vendor documents them; the financial year '2024' is sent as
 * the vendor's '2024-25'. Employment verification's path is vendor-specific.
 */
function intelEndpoints(): Endpoint[] {
  const intel = (kind: Endpoint['kind'], path: string, body: Endpoint['body']): Endpoint => ({
    source: kind,
    kind,
    path,
    body,
  });
  const gstFlags = (q: ProviderQuery) => ({
    filing_status_get: ticked(q, 'filing_status'),
    hsn_info_get: ticked(q, 'hsn_info'),
    filing_frequency_get: ticked(q, 'filing_frequency'),
  });
  const year = (q: ProviderQuery) => {
    const y = Number(field(q, 'year'));
    return Number.isInteger(y) && y > 0 ? `${y}-${String(y + 1).slice(2)}` : undefined;
  };
  return [
    intel('corporate:corporate_gstin', 'corporate/gstin', (q) => ({
      id_number: field(q, 'id_number'),
      ...(year(q) ? { financial_year: year(q) } : {}),
      ...gstFlags(q),
      split_address: ticked(q, 'address'),
    })),
    intel('corporate:gst_intel', 'corporate/gstin-advanced', (q) => ({
      id_number: field(q, 'id_number'),
      ...gstFlags(q),
    })),
    intel('corporate:corporate_cin', 'corporate/company-details', (q) => ({
      id_number: field(q, 'id_number'),
    })),
    intel('corporate:employment_history', 'income/employment-history-uan-v2', (q) => ({
      id_number: field(q, 'id_number'),
    })),
    intel('corporate:find_uan', 'income/epfo/find-uan', (q) => ({
      mobile_number: field(q, 'mobile_number'),
    })),
    intel('corporate:pan_to_uan', 'pan/pan-to-uan', (q) => ({ pan_number: field(q, 'pan_number') })),
    intel('corporate:credit_report', 'credit-report-cibil/fetch-report-pdf', (q) => ({
      mobile: field(q, 'mobile'),
      pan: field(q, 'pan'),
      name: field(q, 'name'),
      gender: field(q, 'gender'),
      consent: ticked(q, 'consent') ? 'Y' : 'N',
    })),
    intel('verification:pan', 'pan/pan-comprehensive', (q) => ({
      id_number: field(q, 'pan'),
      ...filled(q, { name: 'name' }),
    })),
    intel('verification:driving_license', 'driving-license/driving-license', (q) => ({
      id_number: field(q, 'dl_number'),
      dob: field(q, 'dob'),
    })),
    intel('verification:voter_id', 'voter-id/voter-id', (q) => ({
      id_number: field(q, 'epic_number'),
      ...filled(q, { name: 'name' }),
    })),
    intel('verification:passport', 'passport/passport/passport-details', (q) => ({
      id_number: field(q, 'file_number'),
      dob: field(q, 'dob'),
      ...filled(q, { name: 'name' }),
    })),
    intel('verification:bank_account', 'bank-verification', (q) => ({
      id_number: field(q, 'account_number'),
      ifsc: field(q, 'ifsc'),
      ifsc_details: true,
      ...filled(q, { name: 'name', mobile: 'phone' }),
    })),
    intel('verification:ifsc', 'bank-verification/ifsc', (q) => ({ ifsc: field(q, 'ifsc') })),
    intel('verification:vehicle_rc', 'rc/rc-full', (q) => ({
      id_number: field(q, 'vehicle_number').replace(/[\s-]/g, '').toUpperCase(),
    })),
    intel('verification:employment', 'employment/employment-verification-advanced', (q) =>
      filled(q, {
        mobile: 'phone',
        pan: 'pan',
        uan: 'uan',
        dob: 'dob',
        employee_name: 'employee_name',
        employer_name: 'employer_name',
      }),
    ),
  ];
}

/**
 * The KYC vendor: every call a JSON POST with a bearer token, every answer the envelope
 * { data, status_code, success, message, message_code }, which is passed through as the payload
 * (the spec's browser reads `data.data`). 404 and 422 are the vendor's "no record" and are answers;
 * 401/403/429/5xx and 202 (asynchronous, not supported here) are failures.
 */
export function kycProviders(config: KycConfig, vendor?: VendorInfo): Provider[] {
  return endpoints.map((endpoint) => ({
    id: `kyc:${endpoint.source}`,
    source: endpoint.source,
    kinds: [endpoint.kind],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      const payload = endpoint.body(query);
      const path = (config.paths?.[endpoint.source] ?? endpoint.path).replace(/^\/+/, '');
      const res = await fetchJson(`${config.baseUrl}/${path}`, {
        method: 'POST',
        signal,
        headers: {
          authorization: `Bearer ${config.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(payload),
      });
      if (res.status === 200 || res.status === 404 || res.status === 422) {
        if (!isRecord(res.body))
          throw new SourceFailedError('KYC vendor answered an unexpected shape', res.status);
        return res.body;
      }
      if (res.status === 401 || res.status === 403)
        throw new SourceMisconfiguredError(`KYC vendor refused the token (${res.status})`, res.status);
      if (res.status === 429)
        throw new SourceRateLimitedError(
          'KYC vendor rate limit reached',
          retryAfterMs(res.headers.get('retry-after')),
        );
      throw new SourceFailedError(`KYC vendor answered ${res.status}`, res.status);
    },
  }));
}

/** Source keys whose path KYC_PATHS may override. */
export const KYC_SOURCES: readonly string[] = endpoints.map((endpoint) => endpoint.source);

/** Each source's default path and kind (for the vendor's fake and docs/providers.md). */
export const KYC_PATHS: Readonly<Record<string, { path: string; kind: ProviderKind }>> = Object.fromEntries(
  endpoints.map((endpoint) => [endpoint.source, { path: endpoint.path, kind: endpoint.kind }]),
);

const kycPaths = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (!text?.trim()) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of source key → path' });
      return z.NEVER;
    }
    const shape = z.record(z.string(), z.string().regex(/^[\w\-/.]+$/, 'a path of letters, digits, - _ . /'));
    const checked = shape.safeParse(parsed);
    const unknown = checked.success ? Object.keys(checked.data).filter((k) => !KYC_SOURCES.includes(k)) : [];
    if (!checked.success || unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: unknown.length
          ? `unknown source keys: ${unknown.join(', ')}`
          : 'must map source keys to paths',
      });
      return z.NEVER;
    }
    return checked.data;
  });

/**
 * The KYC vendor (Surepass-style API): the mobile-linked government sources, the RC, UPI and challan
 * details, and every corporate and verification search. On when KYC_BASE_URL and KYC_TOKEN are set.
 */
export const kyc = defineVendor({
  id: 'kyc',
  name: 'KYC vendor',
  prefix: 'KYC',
  currency: 'INR',
  env: z.object({
    KYC_BASE_URL: z
      .url()
      .optional()
      .transform((url) => url?.replace(/\/+$/, ''))
      .describe('KYC vendor API base URL, e.g. https://kyc-api.example/api/v1.'),
    KYC_TOKEN: secret().describe('KYC vendor bearer token. With KYC_BASE_URL, turns on the KYC sources.'),
    KYC_PATHS: kycPaths.describe(
      'JSON object overriding the path of a source where this vendor differs, e.g. {"verification:employment":"employment/verify"}.',
    ),
  }),
  configure: (env) =>
    env.KYC_BASE_URL && env.KYC_TOKEN
      ? { baseUrl: env.KYC_BASE_URL, token: env.KYC_TOKEN, paths: env.KYC_PATHS }
      : undefined,
  providers: (config, vendor) => kycProviders(config, vendor),
});
