import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogueSite } from '@footprint/domain';

/**
 * A site catalogue file in the shipped format (SITE_CHECK_CATALOGUE) whose sites are fakes on
 * 127.0.0.1: each entry needs its id and url; the rest has defaults a status_code site would have.
 */
export function writeSiteCatalogue(
  sites: Array<Partial<CatalogueSite> & Pick<CatalogueSite, 'id' | 'url'>>,
): string {
  const file = join(mkdtempSync(join(tmpdir(), 'fp-sites-')), 'catalogue.json');
  const full: CatalogueSite[] = sites.map((site) => ({
    name: site.id,
    main: new URL(site.url.replace('{username}', 'x')).origin,
    check: 'status_code',
    claimed: 'known',
    category: 'social',
    tags: ['social'],
    india: false,
    from: ['sherlock'],
    ...site,
  }));
  writeFileSync(
    file,
    JSON.stringify({
      built_from: { sherlock: { sites: full.length }, maigret: { sites: 0 } },
      dropped: {},
      sites: full,
    }),
  );
  return file;
}
