/**
 * A fake of the KYC vendor (a Surepass-style API: JSON POST per check, bearer token, the envelope
 * { data, status_code, success, message, message_code }), answering with the sandbox's synthetic
 * records so that a whole-product run against fakes shows the same people as the sandbox. A wrong
 * token is 401; a record the sandbox does not hold is the vendor's 422 "no record" envelope.
 */
import type { ServerResponse } from 'node:http';
import { KYC_PATHS } from '../../src/providers/http/kyc.ts';
import type { ProviderQuery } from '../../src/providers/types.ts';
import { sandboxPayload } from '../../src/sandbox/index.ts';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const KYC_FAKE_TOKEN = 'kyc-fake-token';

const NO_RECORD = {
  data: null,
  status_code: 422,
  success: false,
  message: 'No record found',
  message_code: 'verification_failed',
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The query the sandbox needs, read back from the vendor request body. */
function queryOf(kind: ProviderQuery['kind'], body: Record<string, unknown>): ProviderQuery {
  switch (kind) {
    case 'tel':
      return { kind, value: `91${text(body.mobile ?? body.mobile_number ?? body.mobile_no)}` };
    case 'rc':
      return { kind, value: text(body.id_number) };
    case 'upi':
      return { kind, value: text(body.upi_id) };
    case 'challan':
      return { kind, value: text(body.rc_number) };
    default: {
      const params = Object.fromEntries(
        Object.entries(body).filter(([, v]) => typeof v === 'string' || typeof v === 'boolean'),
      ) as Record<string, string | boolean>;
      return { kind, value: text(body.id_number), params };
    }
  }
}

/** The handler: `/<anything>/<vendor path>` → that source's synthetic envelope. */
export function kycFake(options: { token?: string } = {}) {
  const token = options.token ?? KYC_FAKE_TOKEN;
  const byPath = Object.entries(KYC_PATHS);
  const answer = (req: RecordedRequest, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${token}`)
      return sendJson(res, 401, { data: null, status_code: 401, success: false, message: 'Unauthorized' });
    const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
    const match = byPath.find(([, endpoint]) => path.endsWith(`/${endpoint.path}`));
    if (req.method !== 'POST' || !match) return sendJson(res, 404, { message: 'Not found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body || '{}');
    } catch {
      return sendJson(res, 400, { data: null, status_code: 400, success: false, message: 'Bad JSON' });
    }
    const [source, endpoint] = match;
    try {
      const envelope = sandboxPayload(source, queryOf(endpoint.kind, body)) as { status_code?: number };
      const status = typeof envelope?.status_code === 'number' ? envelope.status_code : 200;
      return sendJson(res, status, envelope);
    } catch {
      return sendJson(res, 422, NO_RECORD);
    }
  };
  return (req: RecordedRequest, res: ServerResponse): void => {
    answer(req, res);
  };
}
