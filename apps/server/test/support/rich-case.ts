/**
 * A rich case for the case exports' tests: an FIR as its legal basis, a phone, an e-mail, a username
 * and a leak search of the sandbox's rich demo subject filed under it, and a note. `exportInput` reads
 * it as every export reads a case (modules/cases/exports/input.ts).
 */
import { expect } from 'vitest';
import { type CaseExportInput, caseExportInput } from '../../src/modules/cases/exports/input.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from './app.ts';
import { addLeakRecords } from './leaks.ts';

type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;

export interface RichCase {
  t: TestApp;
  caseId: string;
  reference: string;
  /** Authorised requests as the case's owner. */
  get: (url: string) => Promise<Answer>;
  post: (url: string, body: unknown) => Promise<Answer>;
  exportInput: () => Promise<CaseExportInput>;
}

/** Starts an app and files the rich case in it; close `t` after. */
export async function richCaseApp(reference = 'FIR 214/2026'): Promise<RichCase> {
  const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  await addLeakRecords(t.db, { name: 'Orbitly 2019', breachDate: '2019-03-14' }, [
    { name: 'Rohan Deshmukh', email: 'rich.demo@example.test', phone: '9876543210' },
  ]);
  const deviceId = newDeviceId();
  const user = await createUser(t.db, {
    appMode: 'live',
    trustedDevice: deviceId,
    credits: 100,
    name: 'Asha Rao',
  });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) });

  const caseId = await fileRichCase({ get, post }, reference);

  const exportInput = async () => {
    const detail = (await get(`/api/cases/${caseId}`)).json();
    return caseExportInput(t.db, user, detail, new Date());
  };
  return { t, caseId, reference, get, post, exportInput };
}

/** Requests as a signed-in user, by URL. */
export interface CaseClient {
  get: (url: string) => Promise<Answer>;
  post: (url: string, body: unknown) => Promise<Answer>;
}

/**
 * Opens the rich FIR case as `reference` and files under it a phone, an e-mail, (unless left out) a
 * username and a leak search of the sandbox's demo subject, then a note. Answers the case's id.
 */
export async function fileRichCase(
  client: CaseClient,
  reference: string,
  { username = true }: { username?: boolean } = {},
): Promise<string> {
  const { get, post } = client;
  const created = await post('/api/cases', {
    title: 'Extortion calls',
    reference,
    legal_basis: {
      kind: 'fir',
      police_station: 'Kothrud',
      fir_number: '214',
      year: 2026,
      sections: ['BNS 308(2)'],
      purpose: 'tracing the caller of the extortion complaint',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const caseId = (created.json() as { id: string }).id;
  const ref = encodeURIComponent(reference);
  for (const url of [
    `/api/tel?number=919876543210&case_reference=${ref}`,
    `/api/email?email=rich.demo%40example.test&case_reference=${ref}`,
    ...(username ? [`/api/username?username=rohand90&case_reference=${ref}`] : []),
  ]) {
    const answer = await get(url);
    expect(answer.statusCode, answer.body).toBe(200);
  }
  const leak = await post('/api/leak-data-finder', {
    fields: [{ type: 'name', value: 'Rohan Deshmukh' }],
    case_reference: reference,
  });
  expect(leak.statusCode, leak.body).toBe(200);
  const note = await post(`/api/cases/${caseId}/notes`, {
    body: 'Caller used the number twice on 3 March.\nAsked the operator for the CDR.',
  });
  expect(note.statusCode).toBe(201);
  return caseId;
}
