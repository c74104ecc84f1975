// The history list grouped by bulk job (`group=job`) and filtered by case (`case_id`) and by job
// (`job_id`): another user's case or job is a 404, decided by the access policy.
import { casesMessages, messages } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkProviders, testEnv, until } from '../bulk/support.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ providers: bulkProviders, env: { ...testEnv, RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

async function liveUser() {
  const user = await createUser(t.db, { appMode: 'live', credits: 100 });
  const { token } = await signIn(t, user.email, user.password);
  const headers = { authorization: `Bearer ${token}` };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, ...json(body, undefined, token) });
  return { user, token, get, post };
}

type Me = Awaited<ReturnType<typeof liveUser>>;

/** Runs a pasted bulk job to its end and answers its id. */
async function bulkJob(me: Me, values: string[], caseReference?: string) {
  const created = await me.post('/api/bulk', {
    type: 'tel',
    values,
    ...(caseReference ? { case_reference: caseReference } : {}),
  });
  expect(created.statusCode, created.body).toBe(202);
  const id: string = created.json().id;
  await until(async () => {
    const job = (await me.get(`/api/bulk/${id}`)).json();
    return job.status === 'done' ? job : false;
  });
  return id;
}

async function caseIdOf(me: Me, reference: string): Promise<string> {
  const list = (await me.get('/api/cases')).json().data as { id: string; reference: string }[];
  const found = list.find((item) => item.reference === reference);
  expect(found, `a case ${reference}`).toBeDefined();
  return found!.id;
}

describe('GET /api/history: bulk jobs grouped, filtered by case and by job', () => {
  let me: Me;
  let jobId: string;
  let caseId: string;
  beforeAll(async () => {
    me = await liveUser();
    // A single search filed under a case, a 3-row bulk job under the same case, one search under none.
    expect((await me.get('/api/tel?number=919876500001&case_reference=FIR%2077%2F2026')).statusCode).toBe(
      200,
    );
    jobId = await bulkJob(me, ['9876500011', '9876500012', '9876500013'], 'FIR 77/2026');
    expect((await me.get('/api/email?email=loose.end%40example.test')).statusCode).toBe(200);
    caseId = await caseIdOf(me, 'FIR 77/2026');
  });

  it('without new parameters lists every lookup as before, one per search, the job rows included', async () => {
    const res = await me.get('/api/history?per_page=100');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(5);
    for (const entry of page.data) {
      expect(entry).not.toHaveProperty('type');
      expect(Object.keys(entry).sort()).toEqual(
        [
          'id',
          'kind',
          'query',
          'query_typed',
          'cost',
          'status',
          'cached',
          'case_reference',
          'created_at',
          'result_available',
          'sandbox',
          'refunded',
        ].sort(),
      );
    }
  });

  it('group=job lists the job as one entry with its name, rows, cost and status', async () => {
    const res = await me.get('/api/history?group=job');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(3);
    expect(page.data.map((item: { type: string }) => item.type)).toEqual(['lookup', 'bulk_job', 'lookup']);
    const [email, job, phone] = page.data;
    expect(email).toMatchObject({ type: 'lookup', kind: 'email', case_reference: null });
    expect(phone).toMatchObject({ type: 'lookup', kind: 'tel', query: '919876500001' });
    expect(job).toMatchObject({
      type: 'bulk_job',
      id: jobId,
      case_reference: 'FIR 77/2026',
      job: {
        id: jobId,
        name: messages.bulkJobs.pastedList,
        total: 3,
        done: 3,
        credits_spent: 3,
        status: 'done',
      },
    });
    // Paged over the merged list: the second page of one entry each is the job.
    const second = (await me.get('/api/history?group=job&per_page=1&page=2')).json();
    expect(second).toMatchObject({ total: 3, page: 2, per_page: 1 });
    expect(second.data).toEqual([job]);
    // A kind filter keeps the job only when it is of that kind.
    const emails = (await me.get('/api/history?group=job&kind=email')).json();
    expect(emails.data.map((item: { type: string }) => item.type)).toEqual(['lookup']);
  });

  it('job_id lists the rows of the job, paged', async () => {
    const first = (await me.get(`/api/history?job_id=${jobId}&per_page=2`)).json();
    expect(first.total).toBe(3);
    expect(first.data).toHaveLength(2);
    const second = (await me.get(`/api/history?job_id=${jobId}&per_page=2&page=2`)).json();
    const queries = [...first.data, ...second.data].map((entry: { query: string }) => entry.query).sort();
    expect(queries).toEqual(['919876500011', '919876500012', '919876500013']);
  });

  it("case_id lists only the case's searches; grouped, its job is one entry", async () => {
    const plain = (await me.get(`/api/history?case_id=${caseId}&per_page=100`)).json();
    expect(plain.total).toBe(4);
    expect(
      plain.data.every((entry: { case_reference: string }) => entry.case_reference === 'FIR 77/2026'),
    ).toBe(true);
    const grouped = (await me.get(`/api/history?case_id=${caseId}&group=job`)).json();
    expect(grouped.data.map((item: { type: string; id: string }) => [item.type, item.id])).toEqual([
      ['bulk_job', jobId],
      ['lookup', expect.any(String)],
    ]);
    // Another case of the user: nothing of this one.
    const other = await me.post('/api/cases', { title: 'Empty case', reference: 'FIR 78/2026' });
    expect(other.statusCode, other.body).toBe(201);
    const empty = (await me.get(`/api/history?case_id=${other.json().id}&group=job`)).json();
    expect(empty).toMatchObject({ total: 0, data: [] });
  });

  it("another user's case or job is a 404, and ill-formed ids and groups a 422", async () => {
    const stranger = await liveUser();
    const theirCase = await stranger.get(`/api/history?case_id=${caseId}`);
    expect(theirCase.statusCode).toBe(404);
    expect(theirCase.json().message).toBe(casesMessages.notFound);
    const theirJob = await stranger.get(`/api/history?job_id=${jobId}&group=job`);
    expect(theirJob.statusCode).toBe(404);
    expect(theirJob.json().message).toBe('No bulk job of yours has this id.');
    // The owner's own grouped list is not the stranger's: they see no job of another.
    expect((await stranger.get('/api/history?group=job')).json()).toMatchObject({ total: 0, data: [] });
    // A member of the case filters by it but sees only their own searches in it (none yet).
    const member = await liveUser();
    const added = await me.post(`/api/cases/${caseId}/members`, { email: member.user.email });
    expect(added.statusCode, added.body).toBe(201);
    expect((await member.get(`/api/history?case_id=${caseId}`)).json()).toMatchObject({ total: 0 });

    for (const url of ['/api/history?case_id=1', '/api/history?job_id=x', '/api/history?group=rows']) {
      const res = await me.get(url);
      expect(res.statusCode, url).toBe(422);
    }
  });
});
