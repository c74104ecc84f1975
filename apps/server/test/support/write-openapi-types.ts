// Writes test/support/openapi-types.generated.ts from the live OpenAPI document of a test app.
import { writeFile } from 'node:fs/promises';
import { createTestApp } from './app.ts';
import { GENERATED_TYPES_FILE, typesOf } from './openapi-types.ts';

const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
try {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  await writeFile(GENERATED_TYPES_FILE, await typesOf(res.json()));
  console.log(`wrote ${GENERATED_TYPES_FILE.pathname}`);
} finally {
  await t.close();
}
