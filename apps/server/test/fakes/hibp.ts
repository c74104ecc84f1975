/**
 * A fake of Have I Been Pwned API v3 (GET /breachedaccount/{account}?truncateResponse=false with
 * `hibp-api-key`), answering the sandbox's synthetic breaches of the address: 404 when it has none,
 * 401 for a wrong key, 403 without a user agent (as HIBP does).
 */
import type { ServerResponse } from 'node:http';
import { emailSourcePayload } from '../../src/sandbox/index.ts';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const HIBP_FAKE_KEY = 'hibp-fake-key';

export function hibpFake(options: { apiKey?: string } = {}) {
  const apiKey = options.apiKey ?? HIBP_FAKE_KEY;
  const answer = (req: RecordedRequest, res: ServerResponse) => {
    if (!req.headers['user-agent']) return sendJson(res, 403, { statusCode: 403, message: 'No user agent' });
    if (req.headers['hibp-api-key'] !== apiKey)
      return sendJson(res, 401, { statusCode: 401, message: 'Access denied due to invalid hibp-api-key.' });
    const match = /\/breachedaccount\/([^/?]+)/.exec(req.url);
    if (req.method !== 'GET' || !match) return sendJson(res, 404, { statusCode: 404, message: 'Not found' });
    const breaches = emailSourcePayload('hibpData', decodeURIComponent(match[1]!));
    if (!Array.isArray(breaches) || breaches.length === 0) {
      res.writeHead(404);
      return res.end();
    }
    return sendJson(res, 200, breaches);
  };
  return (req: RecordedRequest, res: ServerResponse): void => {
    answer(req, res);
  };
}
