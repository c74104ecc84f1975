// The username site catalogue: the committed catalogue.json is what scripts/build-username-catalogue.mjs
// builds from the vendored lists (data/username-sites/), its sites hold together, the build's rules do
// what its header says, the loader's helpers encode and filter names, and the lists' licences ship.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { CatalogueSite } from '@footprint/domain';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadCatalogue,
  profileUrl,
  SITE_LIST_LICENCES,
  siteAllows,
} from '../../../src/providers/sites/catalogue.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const script = join(root, 'scripts/build-username-catalogue.mjs');
const committed = join(root, 'apps/server/src/providers/sites/catalogue.json');
const temp = mkdtempSync(join(tmpdir(), 'footprint-catalogue-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The script's exit code and output for some arguments. */
async function runScript(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

type Built = { built_from: unknown; dropped: Record<string, number>; sites: CatalogueSite[] };
/** The script's own build function, run on made-up lists. */
async function build(sherlock: object, maigret: object): Promise<Built> {
  const module = (await import(pathToFileURL(script).href)) as {
    buildCatalogue(sherlock: object, maigret: object): string;
  };
  return JSON.parse(module.buildCatalogue(sherlock, maigret)) as Built;
}

const catalogue = loadCatalogue();
const site = (id: string): CatalogueSite => {
  const found = catalogue.byId.get(id);
  if (!found) throw new Error(`no site ${id}`);
  return found;
};
const hostAndPath = (url: string) => {
  const [, host = '', path = ''] = /^https?:\/\/([^/?#]+)(.*)$/i.exec(url) ?? [];
  return `${host.toLowerCase().replace(/^www\./, '')}${path.toLowerCase().replace(/\/+$/, '')}`;
};

describe('the committed catalogue', () => {
  it('is what the build script writes from the vendored lists (--check exits 0)', async () => {
    const { code, output } = await runScript('--check');
    expect(output).toContain('is up to date');
    expect(code).toBe(0);
  });

  it('fails the check when the file differs, or is missing', async () => {
    const changed = join(temp, 'changed.json');
    writeFileSync(changed, readFileSync(committed, 'utf8').replace('"id":"github"', '"id":"github-x"'));
    const differs = await runScript('--check', '--out', changed);
    expect(differs.code).toBe(1);
    expect(differs.output).toContain('differs from the build');
    expect((await runScript('--check', '--out', join(temp, 'absent.json'))).code).toBe(1);
  });

  it('writes the same bytes again (--out), with no time in them', async () => {
    const again = join(temp, 'again.json');
    expect((await runScript('--out', again)).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(committed, 'utf8'));
  });

  it('counts every entry of both lists as a site, a merged duplicate or a drop', () => {
    expect(catalogue.builtFrom).toEqual({ sherlock: { sites: 481 }, maigret: { sites: 3236 } });
    const dropped = Object.values(catalogue.dropped).reduce((sum, n) => sum + n, 0);
    expect(catalogue.sites.length + dropped).toBe(481 + 3236);
    expect(catalogue.sites.length).toBeGreaterThan(2000);
    expect(catalogue.dropped.disabled).toBe(678);
    expect(catalogue.dropped.custom_headers).toBeGreaterThan(0);
    expect(catalogue.dropped.post_or_payload).toBeGreaterThan(0);
    expect(catalogue.dropped.url_probe).toBeGreaterThan(0);
    expect(catalogue.dropped.not_username).toBe(25);
  });

  it('has unique ids, sorted, one site per host and path pattern', () => {
    const ids = catalogue.sites.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const keys = catalogue.sites.map((s) => hostAndPath(s.url));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('holds only http(s) profile URLs with exactly one {username}', () => {
    for (const s of catalogue.sites) {
      expect(s.url, s.id).toMatch(/^https?:\/\/[^/?#\s]+/);
      expect(s.url.split('{username}').length, s.id).toBe(2);
      expect(s.url, s.id).not.toMatch(/\{(urlMain|urlSubpath)?\}/);
    }
  });

  it('gives every message site a marker, and every regex compiles', () => {
    for (const s of catalogue.sites) {
      if (s.check === 'message')
        expect((s.presence?.length ?? 0) + (s.absence?.length ?? 0), s.id).toBeGreaterThan(0);
      else expect(s.presence ?? s.absence, s.id).toBeUndefined();
    }
    const withRegex = catalogue.sites.filter((s) => s.regex !== undefined);
    expect(withRegex.length).toBeGreaterThan(100);
    for (const s of withRegex) {
      let compiled = false;
      for (const flags of ['u', ''])
        try {
          new RegExp(s.regex as string, flags);
          compiled = true;
          break;
        } catch {}
      expect(compiled, s.id).toBe(true);
    }
  });

  it('places known sites: GitHub, a site of both lists, an engine site, and the dropped ones', () => {
    // Maigret's GitHub asks api.github.com (a urlProbe): dropped; Sherlock's checks the page.
    expect(site('github')).toMatchObject({
      name: 'GitHub',
      url: 'https://www.github.com/{username}',
      check: 'status_code',
      claimed: 'blue',
      from: ['sherlock'],
    });
    expect(site('github').regex).toBeDefined();
    // Its tags and rank come from the dropped Maigret twin; the category is the most telling tag, not
    // the alphabetically first ('business').
    expect(site('github')).toMatchObject({ category: 'coding', rank: 10, india: true });
    expect(site('youtube')).toMatchObject({ category: 'social', india: true });
    // A '.in' host tagged with another country is not Indian.
    expect(site('teletype')?.india).toBe(false);
    expect(site('xvideos')).toMatchObject({
      check: 'status_code',
      from: ['sherlock', 'maigret'],
      tags: ['porn'],
      category: 'porn',
      nsfw: true,
      rank: 5368,
      unclaimed: 'noonewouldeverusethis7',
    });
    // A XenForo site: url, check and markers come from Maigret's engines.XenForo.site.
    const forum = site('defenceforumindia');
    expect(forum.url).toBe('https://defenceforumindia.com/members/?username={username}');
    expect(forum.check).toBe('message');
    expect(forum.presence).toContain('memberHeader-content');
    expect(forum.absence).toContain('The specified member cannot be found. Please enter a member');
    expect(forum).toMatchObject({ india: true, category: 'forum', rank: 671170, from: ['maigret'] });
    expect(site('codechef')).toMatchObject({
      india: true,
      check: 'response_url',
      from: ['sherlock', 'maigret'],
    });
    // Twitter: Maigret's sends an API token (headers), Sherlock's asks nitter (urlProbe).
    // Anilist: Sherlock's POSTs a GraphQL query, Maigret's is disabled.
    for (const gone of ['twitter', 'anilist']) expect(catalogue.byId.has(gone), gone).toBe(false);
    expect(catalogue.sites.some((s) => /^https?:\/\/(www\.)?(x\.com|anilist\.co)\//.test(s.url))).toBe(false);
  });

  it('is read once', () => {
    expect(loadCatalogue()).toBe(catalogue);
    expect(catalogue.byId.size).toBe(catalogue.sites.length);
  });
});

describe('the build rules', () => {
  const maigretList = (sites: object, engines: object = {}) => ({ sites, engines, tags: [] });

  it('drops headers, POST, payloads, probes, other protocols and markerless message checks, counting each', async () => {
    const base = { urlMain: 'https://a.example/', usernameClaimed: 'alice', checkType: 'status_code' };
    const built = await build(
      {
        Poster: {
          url: 'https://p.example/{}',
          urlMain: 'https://p.example/',
          errorType: 'status_code',
          username_claimed: 'x',
          request_method: 'POST',
        },
        Plain: {
          url: 'https://plain.example/u/{}',
          urlMain: 'https://plain.example/',
          errorType: ['nope', 'response_url'],
          errorUrl: 'https://plain.example/?q={}',
          username_claimed: 'x',
        },
      },
      maigretList({
        Headers: { ...base, url: 'https://h.example/{username}', headers: { Cookie: 'a=b' } },
        Payload: { ...base, url: 'https://q.example/{username}', requestPayload: { u: '{username}' } },
        Probe: { ...base, url: 'https://r.example/{username}', urlProbe: 'https://api.r.example/{username}' },
        SameProbe: { ...base, url: 'https://s.example/{username}', urlProbe: 'https://s.example/{username}' },
        Onion: { ...base, url: 'http://abc.onion/{username}', protocol: 'tor' },
        NoMarker: { ...base, url: 'https://m.example/{username}', checkType: 'message' },
        Id: { ...base, url: 'https://i.example/{username}', type: 'steam_id' },
        Off: { ...base, url: 'https://o.example/{username}', disabled: true },
        Twice: { ...base, url: 'https://t.example/{username}/{username}' },
      }),
    );
    expect(built.dropped).toEqual({
      custom_headers: 1,
      disabled: 1,
      no_marker: 1,
      not_username: 1,
      post_or_payload: 2,
      url_not_http: 1,
      url_probe: 1,
      url_username: 1,
    });
    expect(built.sites.map((s) => s.id)).toEqual(['plain', 'sameprobe']);
    expect(built.sites[0]).toMatchObject({
      check: 'response_url',
      error_url: 'https://plain.example/?q={username}',
    });
  });

  it('resolves engines, merges duplicates toward the stricter check, and suffixes clashing ids', async () => {
    const built = await build(
      {
        Forum: {
          url: 'https://forum.example/members/?username={}',
          urlMain: 'https://forum.example/',
          errorType: 'status_code',
          username_claimed: 'bob',
          regexCheck: '^[a-z]+$',
        },
        Same: {
          url: 'https://same.example/a/{}',
          urlMain: 'https://same.example/',
          errorType: 'status_code',
          username_claimed: 'x',
        },
      },
      maigretList(
        {
          'Forum X': {
            engine: 'Board',
            urlMain: 'https://www.forum.example/',
            urlSubpath: '',
            usernameClaimed: 'carol',
            usernameUnclaimed: 'nobody1',
            tags: ['in', 'forum'],
            alexaRank: 7,
            presenseStrs: ['own'],
          },
          Same: {
            url: 'https://other.example/b/{username}',
            urlMain: 'https://other.example/',
            checkType: 'status_code',
            usernameClaimed: 'y',
            errors: { Captcha: 'Captcha' },
          },
          Bad: {
            url: 'https://bad.example/{username}',
            checkType: 'status_code',
            usernameClaimed: 'z',
            regexCheck: '(?P<n>x)',
          },
        },
        {
          Board: {
            name: 'Board',
            site: {
              checkType: 'message',
              presenseStrs: ['profilePage'],
              absenceStrs: ['not found'],
              url: '{urlMain}{urlSubpath}/members/?username={username}',
            },
          },
        },
      ),
    );
    expect(built.dropped).toEqual({ duplicate: 1 });
    const [bad, forum, same, same2] = built.sites;
    expect(bad).toMatchObject({ id: 'bad', category: 'other', india: false });
    expect(bad?.regex).toBeUndefined();
    // The Maigret entry has both markers and an unclaimed name: it is kept; the Sherlock regex stands in.
    expect(forum).toEqual({
      id: 'forum-x',
      name: 'Forum X',
      main: 'https://www.forum.example/',
      url: 'https://www.forum.example/members/?username={username}',
      check: 'message',
      presence: ['own', 'profilePage'],
      absence: ['not found'],
      claimed: 'carol',
      unclaimed: 'nobody1',
      regex: '^[a-z]+$',
      category: 'forum',
      tags: ['in', 'forum'],
      india: true,
      rank: 7,
      from: ['sherlock', 'maigret'],
    });
    // Two 'Same' on different hosts: two sites; the later in (name, url) order gets '-2'.
    expect(same).toMatchObject({ id: 'same', url: 'https://other.example/b/{username}', from: ['maigret'] });
    expect(same?.challenges).toEqual({ Captcha: 'Captcha' });
    expect(same2).toMatchObject({
      id: 'same-2',
      url: 'https://same.example/a/{username}',
      from: ['sherlock'],
    });
    expect(same2?.challenges).toBeUndefined();
  });
});

describe('profileUrl and siteAllows', () => {
  it('percent-encodes the username into the one placeholder', () => {
    expect(profileUrl({ url: 'https://example.com/u/{username}/about' }, 'a b/c')).toBe(
      'https://example.com/u/a%20b%2Fc/about',
    );
    expect(profileUrl(site('github'), '$&?#')).toBe('https://www.github.com/%24%26%3F%23');
  });

  it("honours the site's regex, and allows every name without one", () => {
    const github = site('github');
    expect(siteAllows(github, 'octo-cat')).toBe(true);
    expect(siteAllows(github, '-octocat')).toBe(false);
    expect(siteAllows(github, 'a b')).toBe(false);
    expect(siteAllows({ regex: '^[a-z]{3}$' }, 'abcd')).toBe(false);
    expect(siteAllows({}, 'anything at all/')).toBe(true);
  });
});

describe('the lists’ licences', () => {
  it('ship beside the catalogue, MIT, with their copyright lines', () => {
    expect(SITE_LIST_LICENCES.map((l) => l.list)).toEqual(['sherlock', 'maigret']);
    for (const licence of SITE_LIST_LICENCES) {
      expect(existsSync(licence.path), licence.path).toBe(true);
      const text = readFileSync(licence.path, 'utf8');
      expect(text).toContain('MIT License');
      expect(text).toContain('Permission is hereby granted');
      expect(text).toContain(licence.copyright);
      expect(text).toBe(readFileSync(join(root, `data/username-sites/${licence.list}/LICENSE`), 'utf8'));
    }
  });
});
