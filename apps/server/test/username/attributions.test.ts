// The notices of the site lists the username catalogue is built from: public, with the licence texts
// exactly as shipped beside the catalogue.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue, SITE_LIST_LICENCES } from '../../src/providers/sites/catalogue.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/attributions', () => {
  it('answers anyone with both lists, their MIT licence texts as shipped, and the catalogue they built', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/attributions' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(
      body.notices.map((notice: { work: string; licence: string }) => [notice.work, notice.licence]),
    ).toEqual([
      ['Sherlock', 'MIT'],
      ['Maigret', 'MIT'],
    ]);
    for (const [index, licence] of SITE_LIST_LICENCES.entries()) {
      expect(body.notices[index].text).toBe(readFileSync(licence.path, 'utf8').trim());
      expect(body.notices[index].text).toContain('Permission is hereby granted, free of charge');
      expect(body.notices[index].text).toContain(licence.copyright.replace('Copyright (c) ', ''));
    }
    expect(body.catalogue).toEqual({
      sites: loadCatalogue().sites.length,
      built_from: { sherlock: 481, maigret: 3236 },
    });
  });
});
