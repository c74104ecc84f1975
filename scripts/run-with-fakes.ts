/**
 * Runs the whole product with the sandbox OFF and every vendor adapter pointed at its fake on
 * 127.0.0.1: what an operator's deployment with real vendors looks like, on synthetic data.
 *
 *   npm run start:fakes            (PORT, DATA_DIR and DATABASE_URL are honoured; PGlite by default)
 *
 * It builds the web app into apps/web/dist-fakes and serves that (WEB_DIST): apps/web/dist, which a
 * running `npm start` of the same checkout serves, is left alone.
 *
 * Sources with no vendor API (messaging presence, the web-account provider, registered sites, ...)
 * show as "not configured", exactly as they would in production.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEHASHED_FAKE_KEY, dehashedFake } from '../apps/server/test/fakes/dehashed.ts';
import { GRAVATAR_FAKE_KEY, gravatarFake } from '../apps/server/test/fakes/gravatar.ts';
import { HIBP_FAKE_KEY, hibpFake } from '../apps/server/test/fakes/hibp.ts';
import { HLR_FAKE_KEY, HLR_FAKE_SECRET, hlrLookupsFake } from '../apps/server/test/fakes/hlr-lookups.ts';
import { KYC_FAKE_TOKEN, kycFake } from '../apps/server/test/fakes/kyc.ts';
import { LEAKCHECK_FAKE_KEY, leakCheckFake } from '../apps/server/test/fakes/leakcheck.ts';
import { PDL_FAKE_KEY, pdlFake } from '../apps/server/test/fakes/pdl.ts';
import { TWILIO_FAKE_PASSWORD, TWILIO_FAKE_USER, twilioFake } from '../apps/server/test/fakes/twilio.ts';
import { startFakeUpstream } from '../apps/server/test/support/upstream.ts';
import { buildFakesWeb, fakesWebDist } from './fakes-web.ts';

/** Each vendor's fake and the variables that point the server at it. */
const vendors = [
  {
    name: 'Have I Been Pwned',
    handler: hibpFake(),
    env: (url: string) => ({ HIBP_API_KEY: HIBP_FAKE_KEY, HIBP_BASE_URL: `${url}/api/v3` }),
  },
  {
    name: 'KYC vendor',
    handler: kycFake(),
    env: (url: string) => ({ KYC_BASE_URL: `${url}/api/v1`, KYC_TOKEN: KYC_FAKE_TOKEN }),
  },
  {
    name: 'HLR Lookups',
    handler: hlrLookupsFake(),
    env: (url: string) => ({
      HLR_LOOKUPS_API_KEY: HLR_FAKE_KEY,
      HLR_LOOKUPS_API_SECRET: HLR_FAKE_SECRET,
      HLR_LOOKUPS_BASE_URL: `${url}/api/v2`,
    }),
  },
  {
    name: 'Twilio Lookup',
    handler: twilioFake(),
    env: (url: string) => ({
      TWILIO_API_KEY_SID: TWILIO_FAKE_USER,
      TWILIO_API_KEY_SECRET: TWILIO_FAKE_PASSWORD,
      TWILIO_LOOKUP_BASE_URL: `${url}/v2`,
    }),
  },
  {
    name: 'Gravatar',
    handler: gravatarFake(),
    env: (url: string) => ({ GRAVATAR_API_KEY: GRAVATAR_FAKE_KEY, GRAVATAR_BASE_URL: `${url}/v3` }),
  },
  {
    name: 'People Data Labs',
    handler: pdlFake(),
    env: (url: string) => ({ PDL_API_KEY: PDL_FAKE_KEY, PDL_BASE_URL: `${url}/v5` }),
  },
  {
    name: 'LeakCheck',
    handler: leakCheckFake(),
    env: (url: string) => ({ LEAKCHECK_API_KEY: LEAKCHECK_FAKE_KEY, LEAKCHECK_BASE_URL: `${url}/api/v2` }),
  },
  {
    name: 'DeHashed',
    handler: dehashedFake(),
    env: (url: string) => ({ DEHASHED_API_KEY: DEHASHED_FAKE_KEY, DEHASHED_BASE_URL: url }),
  },
];

await buildFakesWeb();

const env: Record<string, string> = {};
const fakes = [];
for (const vendor of vendors) {
  const fake = await startFakeUpstream(vendor.handler);
  fakes.push(fake);
  Object.assign(env, vendor.env(fake.url));
  console.log(`fake ${vendor.name.padEnd(18)} ${fake.url}`);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...env,
    SANDBOX: 'false',
    WEB_DIST: fakesWebDist,
    DATA_DIR: process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'footprint-fakes-')),
    SEED_DEMO: 'true',
  },
});
const stop = async () => {
  server.kill('SIGTERM');
  await Promise.all(fakes.map((fake) => fake.close()));
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
server.once('exit', async (code) => {
  await Promise.all(fakes.map((fake) => fake.close()));
  process.exit(code ?? 0);
});
