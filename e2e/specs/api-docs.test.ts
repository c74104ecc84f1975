import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { picture, useBrowser } from '../support/browser.ts';

/**
 * The API reference (/api/docs): the renderer is served by the product itself and draws
 * /api/openapi.json under the strict CSP (useBrowser fails the test on any CSP violation, uncaught
 * error or request to another origin), with a search, the operations and their examples.
 */

const browser = useBrowser();
const pictures = fileURLToPath(new URL('../../test-results/api-docs', import.meta.url));

describe('/api/docs', () => {
  it('renders the reference with a search, under the CSP, at desktop and phone size', async () => {
    for (const [name, size] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await browser.newPage(size);
      await page.goto('/api/docs');
      await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/Footprint API/);
      await page.getByRole('heading', { name: 'Footprint API', level: 1 }).waitFor({ timeout: 30_000 });
      if (name === 'desktop') {
        // The search finds an operation by its words.
        await page
          .getByRole('button', { name: /search/i })
          .first()
          .click();
        const search = page.getByRole('combobox').or(page.getByRole('searchbox')).first();
        await search.fill('corporate intelligence');
        const hit = page.getByRole('option', { name: /Corporate Intelligence/ }).first();
        await hit.waitFor();
        mkdirSync(pictures, { recursive: true });
        await picture(page, `${pictures}/search.png`);
        // The hit opens the operation: its request body, its example and its answers.
        await hit.click();
        await page.getByText('corporate_gstin').first().waitFor();
        await picture(page, `${pictures}/operation.png`);
        await page.goto('/api/docs');
        await page.getByRole('heading', { name: 'Footprint API', level: 1 }).waitFor({ timeout: 30_000 });
      }
      mkdirSync(pictures, { recursive: true });
      await picture(page, `${pictures}/${name}.png`);
    }
  }, 120_000);
});
