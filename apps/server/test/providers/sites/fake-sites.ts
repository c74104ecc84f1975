import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogueSite } from '@footprint/domain';

/** One request a fake site received: when it came and when its answer ended (performance.now() ms). */
export interface Arrival {
  path: string;
  /** The `site` query parameter (the politeness tests' sites share a path). */
  site: string | null;
  headers: IncomingHttpHeaders;
  at: number;
  endedAt?: number;
}

/** The account that exists on every fake site. */
export const CLAIMED = 'alice';

/** The exact bytes of alice's evidence page (a title with entities and non-ASCII text). */
export const EVIDENCE_PAGE = Buffer.from(
  '<!doctype html><html><head><meta charset="utf-8">\n<title>\n  Alice &amp; Bob&#39;s  page\n  &mdash; Café &#x2713;\n</title></head>' +
    '<body><div class="profile-card">Alice</div></body></html>',
  'utf8',
);

/** The huge page: this 64 KiB pattern, repeated HUGE_REPEATS times (far past any cap of the tests). */
export const HUGE_CHUNK = Buffer.from(Array.from({ length: 65_536 }, (_, i) => (i * 31 + 7) % 251));
export const HUGE_REPEATS = 800;

const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
};

const page = (title: string, content: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${content}</body></html>`;

/** A big ordinary profile page (past the challenge-sized limit). */
const bigPage = (title: string, content: string) =>
  page(title, `${content}${'<p>lorem ipsum</p>'.repeat(4000)}`);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fake sites on 127.0.0.1, one path prefix per site (`/<site>/<username>`), and a second server standing
 * for an internal address a redirect must not reach. Every request is recorded with its arrival and
 * end times; the peak of requests in flight is kept per prefix and over all.
 */
export async function startFakeSites() {
  const arrivals: Arrival[] = [];
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  let allInFlight = 0;
  let allPeak = 0;
  const huge = { written: 0 };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, prefix = '', user = ''] = url.pathname.split('/');
    const arrival: Arrival = {
      path: url.pathname,
      site: url.searchParams.get('site'),
      headers: req.headers,
      at: performance.now(),
    };
    arrivals.push(arrival);
    inFlight.set(prefix, (inFlight.get(prefix) ?? 0) + 1);
    peaks.set(prefix, Math.max(peaks.get(prefix) ?? 0, inFlight.get(prefix) ?? 0));
    allInFlight++;
    allPeak = Math.max(allPeak, allInFlight);
    res.on('close', () => {
      arrival.endedAt = performance.now();
      inFlight.set(prefix, (inFlight.get(prefix) ?? 1) - 1);
      allInFlight--;
    });
    try {
      await route(prefix, user, url, res);
    } catch {
      res.destroy();
    }
  });

  async function route(prefix: string, user: string, url: URL, res: ServerResponse): Promise<void> {
    const claimed = user === CLAIMED;
    switch (prefix) {
      case 'status':
        return claimed
          ? html(res, 200, bigPage('alice on Status', 'profile'))
          : html(res, 404, page('Not found', ''));
      case 'gone-code':
        return claimed
          ? html(res, 200, bigPage('alice', 'profile'))
          : html(res, 451, page('Unavailable', ''));
      case 'message':
        return claimed
          ? html(res, 200, bigPage('alice', '<div class="profile-card">alice</div>'))
          : html(res, 200, bigPage('Message', '<p>No such user</p>'));
      case 'absence-only':
        return html(
          res,
          200,
          bigPage('Absence', claimed ? '<h1>alice</h1>' : '<p>This account does not exist</p>'),
        );
      case 'changed':
        return html(res, 200, bigPage('Changed', '<div class="new-profile-layout">whoever</div>'));
      case 'response': {
        if (claimed) return html(res, 200, bigPage('alice', 'profile'));
        res.writeHead(302, { location: '/response-missing/' });
        return void res.end();
      }
      case 'response-missing':
        return html(res, 200, bigPage('Search people', 'no such page'));
      case 'chain': {
        const hop = Number(url.searchParams.get('hop') ?? '0');
        if (hop < 3) {
          res.writeHead(hop === 0 ? 301 : 302, {
            location: `/chain/${user}?hop=${hop + 1}`,
            'set-cookie': `hop${hop}=1; Path=/`,
          });
          return void res.end();
        }
        return html(res, 200, bigPage(`${user} after the chain`, 'profile'));
      }
      case 'loop': {
        const hop = Number(url.searchParams.get('hop') ?? '0');
        res.writeHead(302, { location: `/loop/${user}?hop=${hop + 1}` });
        return void res.end();
      }
      case 'to-internal': {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        return void res.end();
      }
      case 'cf-header':
        return html(res, 403, page('Just a moment...', '<div>checking</div>'), {
          'cf-mitigated': 'challenge',
        });
      case 'cf-moment':
        return html(
          res,
          503,
          page('Just a moment...', '<noscript>Enable JavaScript and cookies to continue</noscript>'),
        );
      case 'own-challenge':
        return html(res, 200, page('Profile', '<div id="slider-captcha-wall">Slide to continue</div>'));
      case 'login-wall': {
        res.writeHead(302, { location: `/accounts/login/?next=/login-wall/${user}` });
        return void res.end();
      }
      case 'accounts':
        return html(res, 200, page('Log in', '<form>password</form>'));
      case 'limited':
        return html(res, 429, page('Too many requests', ''), { 'retry-after': '120' });
      case 'slow':
        await delay(2000);
        return html(res, 200, bigPage('late', 'profile'));
      case 'huge': {
        res.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < HUGE_REPEATS && !res.destroyed; i++) {
          huge.written += HUGE_CHUNK.length;
          if (!res.write(HUGE_CHUNK)) {
            await new Promise<void>((resolve) => {
              const done = () => {
                res.off('drain', done);
                res.off('close', done);
                resolve();
              };
              res.on('drain', done);
              res.on('close', done);
            });
          }
        }
        return void res.end();
      }
      case 'evidence':
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': EVIDENCE_PAGE.length,
        });
        return void res.end(EVIDENCE_PAGE);
      case 'polite':
      case 'cap':
        await delay(Number(url.searchParams.get('ms') ?? '80'));
        return html(res, 200, bigPage(user, 'profile'));
      default:
        return html(res, 404, page('Not found', ''));
    }
  }

  const internalArrivals: string[] = [];
  const internal = createServer((req, res) => {
    internalArrivals.push(req.url ?? '/');
    html(res, 200, page('Internal admin', 'secrets'));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const internalPort = (internal.address() as AddressInfo).port;
  const closeOne = (s: typeof server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    internalPort,
    arrivals,
    internalArrivals,
    huge,
    /** Requests that reached a prefix. */
    hits: (prefix: string) => arrivals.filter((a) => a.path.split('/')[1] === prefix),
    peakOf: (prefix: string) => peaks.get(prefix) ?? 0,
    peak: () => allPeak,
    /** A synthetic catalogue entry for one of the fake sites. */
    site(id: string, check: CatalogueSite['check'], more: Partial<CatalogueSite> = {}): CatalogueSite {
      return {
        id,
        name: id,
        main: `http://127.0.0.1:${port}/`,
        url: `http://127.0.0.1:${port}/${id}/{username}`,
        check,
        claimed: CLAIMED,
        category: 'test',
        tags: [],
        india: false,
        from: ['sherlock'],
        ...more,
      };
    },
    close: async () => {
      await closeOne(server);
      await closeOne(internal);
    },
  };
}

export type FakeSites = Awaited<ReturnType<typeof startFakeSites>>;
