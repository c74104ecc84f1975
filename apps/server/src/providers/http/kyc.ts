import {
  type Provider,
  type ProviderQuery,
  type QueryKind,
  SourceFailedError,
  SourceNotFoundError,
} from '../types.ts';
import { fetchJson, isRecord } from './fetch-json.ts';

export interface KycConfig {
  baseUrl: string;
  token: string;
}

interface Endpoint {
  source: string;
  kind: QueryKind;
  path: string;
  body: (query: ProviderQuery) => Record<string, unknown>;
}

/** Mobile-linked calls take the 10-digit Indian mobile; other countries are not covered by the vendor. */
const indianMobile = (query: ProviderQuery): string => {
  if (!/^91\d{10}$/.test(query.value))
    throw new SourceNotFoundError('Not available for numbers outside India.');
  return query.value.slice(2);
};

/** Paths and payloads as research/upstreams.md records them for a Surepass-style KYC API. */
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
];

/**
 * The KYC vendor: every call a JSON POST with a bearer token, every answer the envelope
 * { data, status_code, success, message, message_code }, which is passed through as the payload
 * (the spec's browser reads `data.data`). 404 and 422 are the vendor's "no record" and are answers;
 * 401/403/429/5xx and 202 (asynchronous, not supported here) are failures.
 */
export function kycProviders(config: KycConfig): Provider[] {
  return endpoints.map((endpoint) => ({
    id: `kyc:${endpoint.source}`,
    source: endpoint.source,
    kinds: [endpoint.kind],
    sandbox: false,
    async fetch(query, signal) {
      const payload = endpoint.body(query);
      const res = await fetchJson(`${config.baseUrl}/${endpoint.path}`, {
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
      throw new SourceFailedError(`KYC vendor answered ${res.status}`, res.status);
    },
  }));
}
