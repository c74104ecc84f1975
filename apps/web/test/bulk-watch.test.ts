import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BulkJob } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobOf, readJobStream, watchJob } from '../src/features/bulk/watch.ts';
import { ApiError } from '../src/lib/api.ts';

/**
 * The bulk job watcher against a real HTTP server on 127.0.0.1: an event stream split at awkward
 * places, one that breaks, one that is refused, and the 2-second poll that takes over.
 */

const job = (patch: Partial<BulkJob>): BulkJob => ({
  id: 'job-1',
  status: 'running',
  total: 3,
  done: 0,
  charged: 0,
  failed: 0,
  type: 'tel',
  name: 'list.csv',
  credits_spent: 0,
  case_reference: null,
  stop_reason: null,
  created_at: '2026-11-25T10:00:00.000Z',
  finished_at: null,
  ...patch,
});

const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const done = job({ status: 'done', done: 3, charged: 2, failed: 1, finished_at: '2026-11-25T10:01:00.000Z' });

/** What the server answers, per path; `/job` counts its calls (the polls). */
let polls = 0;
let pollAnswers: BulkJob[] = [];
const routes: Record<string, (res: ServerResponse) => void> = {
  // Chunks cut inside a line and inside a JSON value, a comment, an event that is no job, then done.
  '/events/split': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = `: keep-alive\n\n${event(job({ done: 1 }))}data: not json\n\n${event(job({ done: 2 }))}${event(done)}`;
    const cuts = [5, 40, 41, 90, 200, text.length];
    let from = 0;
    const next = () => {
      const to = cuts.shift();
      if (to === undefined) return res.end();
      res.write(text.slice(from, to));
      from = to;
      setTimeout(next, 5);
    };
    next();
  },
  // The connection drops after one running job, before any final status.
  '/events/broken': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(event(job({ done: 1 })));
    setTimeout(() => res.destroy(), 20);
  },
  '/events/refused': (res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"message":"Server Error"}');
  },
  // Open and silent until the client lets go.
  '/events/silent': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
  },
  '/job': (res) => {
    polls += 1;
    const answer = pollAnswers.shift() ?? done;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  },
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const poll = async (signal: AbortSignal) =>
  (await (await fetch(`${base}/job`, { signal })).json()) as BulkJob;

function watch(path: string, extra: { pollMs?: number; signal?: AbortSignal; poll?: typeof poll } = {}) {
  const seen: BulkJob[] = [];
  let fellBack = 0;
  polls = 0;
  const result = watchJob({
    open: (signal) => fetch(`${base}${path}`, { signal }),
    poll: extra.poll ?? poll,
    onJob: (j) => seen.push(j),
    onFallback: () => {
      fellBack += 1;
    },
    signal: extra.signal ?? new AbortController().signal,
    pollMs: extra.pollMs ?? 10,
  });
  return { result, seen, fellBack: () => fellBack };
}

describe('jobOf', () => {
  it('reads a job and ignores anything else', () => {
    expect(jobOf(JSON.stringify(done))).toEqual(done);
    expect(jobOf('not json')).toBeNull();
    expect(jobOf('{"id":"x"}')).toBeNull();
    expect(jobOf(JSON.stringify({ ...done, status: 'exploded' }))).toBeNull();
  });
});

describe('readJobStream', () => {
  it('hands over every job of a stream cut at any place, and stops at the final one', async () => {
    const seen: BulkJob[] = [];
    const response = await fetch(`${base}/events/split`);
    const last = await readJobStream(response.body!, (j) => seen.push(j));
    expect(seen.map((j) => [j.status, j.done])).toEqual([
      ['running', 1],
      ['running', 2],
      ['done', 3],
    ]);
    expect(last).toEqual(done);
  });
});

describe('watchJob', () => {
  it('follows the stream to the end without polling', async () => {
    const run = watch('/events/split');
    expect(await run.result).toEqual(done);
    expect(run.seen.at(-1)).toEqual(done);
    expect(run.fellBack()).toBe(0);
    expect(polls).toBe(0);
  });

  it('polls when the stream breaks before a final status, until the job ends', async () => {
    pollAnswers = [job({ done: 2 }), job({ status: 'paused', done: 2 })];
    const run = watch('/events/broken');
    expect(await run.result).toEqual(done);
    expect(run.fellBack()).toBe(1);
    expect(polls).toBe(3);
    expect(run.seen.map((j) => [j.status, j.done])).toEqual([
      ['running', 1],
      ['running', 2],
      ['paused', 2],
      ['done', 3],
    ]);
  });

  it('polls when the stream is refused', async () => {
    pollAnswers = [];
    const run = watch('/events/refused');
    expect(await run.result).toEqual(done);
    expect(run.fellBack()).toBe(1);
    expect(polls).toBe(1);
  });

  it('keeps polling through a failed poll, and waits the interval between polls', async () => {
    let calls = 0;
    const started = Date.now();
    const run = watch('/events/refused', {
      pollMs: 60,
      poll: async (signal) => {
        calls += 1;
        if (calls === 1) throw new ApiError(0, {}, 'Network request failed');
        return poll(signal);
      },
    });
    pollAnswers = [];
    expect(await run.result).toEqual(done);
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  it('gives up when the job is gone (404)', async () => {
    const run = watch('/events/refused', {
      poll: async () => {
        throw new ApiError(404, { message: 'Not found.' });
      },
    });
    await expect(run.result).rejects.toMatchObject({ status: 404 });
  });

  it('stops when the page lets go, whether streaming or polling', async () => {
    const streaming = new AbortController();
    const open = watch('/events/silent', { signal: streaming.signal });
    setTimeout(() => streaming.abort(), 30);
    expect(await open.result).toBeNull();
    expect(open.fellBack()).toBe(0);

    const polling = new AbortController();
    pollAnswers = Array.from({ length: 1000 }, () => job({ done: 1 }));
    const asking = watch('/events/refused', { signal: polling.signal, pollMs: 10 });
    // Let go once a poll has been answered (a fixed delay lost the race on a loaded machine).
    while (polls < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    polling.abort();
    expect((await asking.result)?.status).toBe('running');
    // A poll sent just before the abort may still reach the server: let it land, then no new one may start.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const after = polls;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(polls).toBe(after);
    pollAnswers = [];
  });
});
