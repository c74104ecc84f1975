// Benchmark of the username site check. Run: npm run bench:username [-- --latency 150 --cap 64 --interval 1000]
// The whole shipped catalogue, each site rewritten to a fake of itself on 127.0.0.1 that speaks its
// check type (a found page, a no-such-user page or redirect, by the site's own markers), answering
// after a latency drawn per site (uniform 0..2×`latency` ms, so `latency` is the mean). A share of the
// sites answer 429 or a Cloudflare challenge, as real ones do. The built server (apps/server/dist), on
// PostgreSQL, runs one username lookup with the politeness rules on (one request at a time per site,
// the interval between two to one site, the global cap), then the same name again with `fresh=1`.
// Printed: the number of sites; the lookup's time beside its floor (sites × mean latency / cap: what
// the cap allows at best); the server's peak memory (VmHWM) beside its memory before the lookup; CPU
// of the server and the database per site; and whether every site landed in the state its fake meant.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CatalogueSite, SiteCheckAnswer } from '@footprint/domain';
import {
  cpuMeter,
  fmt,
  freshDatabase,
  loadAverage,
  main,
  onCleanup,
  root,
  seedUsers,
  startServer,
  tempDir,
} from './harness.ts';

const { values } = parseArgs({
  options: {
    latency: { type: 'string', default: '150' },
    cap: { type: 'string', default: '64' },
    interval: { type: 'string', default: '1000' },
    deadline: { type: 'string', default: '300000' },
  },
});
const meanLatency = Number(values.latency);
const cap = Number(values.cap);

/** The name the bench looks up: "found" on the sites whose hash says so (about 3 %). */
const NAME = 'benchuser42';
const fraction = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
type Meant = 'found' | 'not_found' | 'blocked';
/** What a site's fake means for NAME: 2 % answer 429, 2 % a challenge, 3 % know the name. */
const meantFor = (id: string): Meant => {
  const draw = fraction(`state:${id}`);
  return draw < 0.02 ? 'blocked' : draw < 0.04 ? 'blocked' : draw < 0.07 ? 'found' : 'not_found';
};
const latencyOf = (id: string) => Math.round(2 * meanLatency * fraction(`latency:${id}`));

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/** The fake of every site: `/<id>/<name>` answers as the site would, by its check type and markers. */
async function startFakes(sites: readonly CatalogueSite[]) {
  const byId = new Map(sites.map((site) => [site.id, site]));
  const server = createServer((req, res) => {
    const [, rawId = '', rawName = ''] = (req.url ?? '/').split('?')[0]!.split('/');
    const id = decodeURIComponent(rawId);
    const site = byId.get(id);
    setTimeout(() => {
      if (!site) {
        res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', ''));
        return;
      }
      const meant = decodeURIComponent(rawName) === NAME ? meantFor(id) : 'not_found';
      if (meant === 'blocked') {
        if (fraction(`state:${id}`) < 0.02) {
          res.writeHead(429, { 'retry-after': '60', 'content-type': 'text/html' }).end(page('Too many', ''));
        } else {
          res
            .writeHead(403, { 'cf-mitigated': 'challenge', 'content-type': 'text/html' })
            .end(page('Just a moment...', ''));
        }
        return;
      }
      answer(site, meant === 'found', res);
    }, latencyOf(id));
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup('fake sites', () => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A found or missing profile page as the site's check type reads it. */
function answer(site: CatalogueSite, found: boolean, res: import('node:http').ServerResponse) {
  const html = { 'content-type': 'text/html; charset=utf-8' };
  const filler = '<p>lorem ipsum dolor sit amet</p>'.repeat(120);
  if (site.check === 'status_code') {
    const missing = site.absent_codes?.[0] ?? 404;
    res.writeHead(found ? 200 : missing, html).end(page(found ? 'Profile' : 'Not found', filler));
  } else if (site.check === 'response_url') {
    if (found) res.writeHead(200, html).end(page('Profile', filler));
    else res.writeHead(302, { location: `/${encodeURIComponent(site.id)}-missing/x` }).end();
  } else if (!found && !site.absence?.length) {
    // A site known only by the marker of a profile says "no" with its 404.
    res.writeHead(404, html).end(page('Not found', filler));
  } else {
    const marker = found ? (site.presence?.[0] ?? '') : (site.absence?.[0] ?? '');
    res.writeHead(200, html).end(page('Profile', `${filler}<div>${marker}</div>`));
  }
}

/** The shipped catalogue with every site moved to its fake on 127.0.0.1. */
function loopbackCatalogue(port: number) {
  const shipped = JSON.parse(
    readFileSync(join(root, 'apps/server/src/providers/sites/catalogue.json'), 'utf8'),
  ) as { sites: CatalogueSite[] } & Record<string, unknown>;
  const sites = shipped.sites.map((site) => {
    const base = `http://127.0.0.1:${port}/${encodeURIComponent(site.id)}`;
    const { error_url: _dropped, ...rest } = site;
    return { ...rest, main: `${base}/`, url: `${base}/{username}` };
  });
  const file = join(tempDir('fp-bench-sites-'), 'catalogue.json');
  writeFileSync(file, JSON.stringify({ ...shipped, sites }));
  return { file, sites };
}

/** Bytes on the wire of an answer asked for as a browser asks (Accept-Encoding), not decoded. */
function wireBytes(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve(bytes));
      },
    );
    request.on('error', reject);
  });
}

const peakKb = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

await main(async () => {
  const seed = JSON.parse(readFileSync(join(root, 'apps/server/src/providers/sites/catalogue.json'), 'utf8'));
  const fakePort = await startFakes(seed.sites);
  const { file, sites } = loopbackCatalogue(fakePort);
  const db = await freshDatabase();
  const serverPort = 3900 + Math.floor(Math.random() * 90);
  const server = await startServer(
    {
      DATABASE_URL: db.url,
      RATE_LIMIT_ENABLED: 'false',
      SANDBOX: 'false',
      SITE_CHECK_ENABLED: 'true',
      SITE_CHECK_USER_AGENT: 'Footprint-SiteCheck/bench (+http://127.0.0.1/)',
      SITE_CHECK_CATALOGUE: file,
      SITE_CHECK_ALLOW_ADDRESSES: `127.0.0.1:${fakePort}`,
      SITE_CHECK_CONCURRENCY: String(cap),
      SITE_CHECK_INTERVAL_MS: values.interval!,
      SITE_CHECK_DEADLINE_MS: values.deadline!,
    },
    serverPort,
  );
  const [token] = await seedUsers(db.url, 1, 1000);
  const base = `http://127.0.0.1:${serverPort}`;
  const { pid } = server;
  console.log(
    `Username site check: ${sites.length} sites on loopback fakes, mean latency ${meanLatency} ms, cap ${cap}, ` +
      `interval ${values.interval} ms; load average ${loadAverage()}`,
  );
  const floor = (sites.length * meanLatency) / cap / 1000;
  for (const [label, query] of [
    ['first lookup', ''],
    ['again, fresh=1', '&fresh=1'],
  ] as const) {
    const rssBefore = rssKb(pid);
    const meter = cpuMeter({ serverPid: pid, databaseUrl: db.url, database: db.name });
    await meter.start();
    const started = performance.now();
    const res = await fetch(`${base}/api/username?username=${NAME}${query}`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' },
    });
    const body = (await res.json()) as { sitesData?: SiteCheckAnswer; message?: string };
    const seconds = (performance.now() - started) / 1000;
    const cpu = await meter.stop();
    if (res.status !== 200 || !body.sitesData)
      throw new Error(`${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const answer = body.sitesData;
    const landed = new Map<string, string>([
      ...answer.sites.map((line) => [line.site, line.state] as const),
      ...answer.not_found.map((id) => [id, 'not_found'] as const),
    ]);
    const wrong = sites.filter((site) => {
      const state = landed.get(site.id);
      if (state === 'not_checked') return false; // the name is not one the site allows
      return state !== meantFor(site.id);
    });
    console.log(
      `${label}: ${fmt(seconds, 1)} s for ${sites.length} sites (floor ${fmt(floor, 1)} s at the cap); ` +
        `counts ${JSON.stringify(answer.counts)}; ${wrong.length} sites in another state than their fake meant` +
        (wrong.length
          ? ` (e.g. ${wrong
              .slice(0, 3)
              .map((site) => `${site.id}: ${landed.get(site.id)}`)
              .join(', ')})`
          : ''),
    );
    console.log(
      `  answer: ${fmt(JSON.stringify(body).length / 1024, 0)} KB of JSON, ` +
        `${fmt((await wireBytes(`${base}/api/username?username=${NAME}`, token!)) / 1024, 0)} KB on the wire (a reuse, br/gzip)`,
    );
    console.log(
      `  server memory: ${fmt(rssBefore / 1024, 0)} MB before, peak ${fmt(peakKb(pid) / 1024, 0)} MB (VmHWM); ` +
        `CPU ${fmt(cpu.server, 2)} s server + ${fmt(cpu.postgres, 2)} s PostgreSQL = ` +
        `${fmt(((cpu.server + cpu.postgres) * 1000) / sites.length, 2)} ms per site`,
    );
  }
  await server.stop();
});
