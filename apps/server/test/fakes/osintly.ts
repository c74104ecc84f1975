/**
 * A fake osint.ly search API speaking the documented wire format (docs.osint.ly, API reference):
 * - POST /search `{type: 'Pseudonym', value, options}` → 201 with the search under `data.search`
 *   (assumed, as GET /search/{id} answers it; see providers/http/osintly.ts);
 * - GET /search/{id}/stream → Server-Sent Events: `connected`, `search.progress`, one `module.result`
 *   per card, `search.finished`, written in small pieces (an event may be cut mid-line, lines end in
 *   LF or CRLF) as a real stream arrives.
 * A Bearer token other than the fake's key is refused with 401. Synthetic data only.
 */
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const OSINTLY_FAKE_KEY = 'osintly-fake-key';

/** One module.result: the module's name and its card. */
export interface FakeModuleResult {
  name: string;
  card: Record<string, unknown>;
}

/** The cards the fake reports for a name: a few shapes of the documentation, and nothing for others. */
export function defaultResults(username: string): FakeModuleResult[] {
  if (username.startsWith('nobody')) return [];
  return [
    {
      name: 'GitHub',
      card: { github_001: { username, profile_url: `https://github.example.test/${username}` } },
    },
    {
      name: 'X (Twitter)',
      card: {
        x_twitter_001: {
          items: [
            { label: 'Username', value: username, copy: true, isdate: false, islink: false },
            { label: 'Profile', value: `https://x.example.test/${username}`, islink: true },
          ],
        },
      },
    },
    // The same account twice (a second shard reporting it again) is listed once.
    {
      name: 'GitHub',
      card: { github_001: { username, profile_url: `https://github.example.test/${username}` } },
    },
    // A card with neither a name nor an address is not an account.
    { name: 'Gravatar', card: { gravatar_001: { email_hash: 'md5:0000' } } },
    // A script address is no profile link: the name is kept, the link dropped.
    { name: 'Forum', card: { forum_001: { username, url: 'javascript:alert(1)' } } },
  ];
}

/** An SSE event's text: `event:` then the data line, then the blank line. */
export const sse = (event: string, data: unknown, eol = '\n') =>
  `event: ${event}${eol}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;

const SEARCH_ID = 'd290f1ee-6c54-4b01-90e6-d701748f0851';

/** Writes `text` in pieces of `size` characters, `gapMs` apart (0: all at once). */
export async function writeInPieces(res: ServerResponse, text: string, size = 37, gapMs = 2) {
  for (let at = 0; at < text.length; at += size) {
    if (res.destroyed) return;
    res.write(text.slice(at, at + size));
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

export interface OsintlyFakeOptions {
  results?: (username: string) => FakeModuleResult[];
  /** What search.finished says (default 'completed'). */
  finalStatus?: string;
}

/** The fake's handler. The stream of a search reports the cards of the name the search was made for. */
export function osintlyFake(options: OsintlyFakeOptions = {}) {
  const results = options.results ?? defaultResults;
  const searches = new Map<string, string>();
  let next = 0;
  return async (req: RecordedRequest, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${OSINTLY_FAKE_KEY}`)
      return sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } });
    const now = new Date().toISOString();
    if (req.method === 'POST' && req.url === '/search') {
      const body = JSON.parse(req.body) as { type?: string; value?: string };
      if (body.type !== 'Pseudonym' || typeof body.value !== 'string')
        return sendJson(res, 400, { error: { code: 'VALIDATION_ERROR', message: 'type' } });
      next += 1;
      const id = `${SEARCH_ID.slice(0, -4)}${String(next).padStart(4, '0')}`;
      searches.set(id, body.value);
      return sendJson(res, 201, {
        data: {
          search: {
            id,
            status: 'queued',
            query: { type: body.type, value: body.value },
            created_at: now,
            started_at: null,
            completed_at: null,
          },
          links: { stream: `https://api.osint.ly/search/${id}/stream` },
        },
        meta: { environment: 'production', timestamp: now },
      });
    }
    const match = /^\/search\/([^/]+)\/stream$/.exec(req.url);
    const username = match ? searches.get(match[1]!) : undefined;
    if (req.method !== 'GET' || !match || username === undefined)
      return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Search not found' } });
    const id = match[1]!;
    const found = results(username);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let text = `: keep-alive\n\n${sse('connected', { search_id: id, timestamp: now })}`;
    text += sse(
      'search.progress',
      { search_id: id, status: 'running', message: 'orchestration started' },
      '\r\n',
    );
    found.forEach((result, index) => {
      const module = { id: `module-${index}`, name: result.name };
      text += sse(
        'module.result',
        { search_id: id, module, card: result.card, timestamp: now },
        index % 2 ? '\r\n' : '\n',
      );
    });
    text += sse('search.finished', {
      search_id: id,
      status: options.finalStatus ?? 'completed',
      totals: { module_results: found.length },
      execution_time_ms: 120,
      timestamp: now,
    });
    await writeInPieces(res, text);
    res.end();
  };
}
