// What bench:lookup and bench/src/lookup-cost.ts share: CPU readings from /proc (a process, and the
// PostgreSQL backends serving a database), and a closed-loop load that asks as a browser does
// (`Accept-Encoding: br, gzip`) and counts the bytes that come back.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import pg from 'pg';

/** What a browser sends (Chrome adds zstd; bench:lookup asks as Firefox and Safari do). */
export const BROWSER_ENCODINGS = 'br, gzip';

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); 0 once it has gone. */
export function cpuSeconds(pid: number | 'self'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend serving `database` (PostgreSQL runs on this
 * machine). Background processes (WAL writer, checkpointer) are not counted.
 */
export async function backendCpu(adminUrl: string, database: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [database],
    );
    return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
  } finally {
    await client.end();
  }
}

/** CPU seconds the backends of `database` used between two readings (backends that left count to their last). */
export function backendDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of after) total += now - (before.get(pid) ?? 0);
  return total;
}

export interface WireSample {
  ms: number;
  status: number;
  serverTiming?: string;
  /** When it was sent, in ms from the start of the load. */
  at: number;
  /** Bytes received: the status line and headers, and the body as it came (compressed or not). */
  wireBytes: number;
  bodyBytes: number;
  encoding: string;
}

/**
 * A closed-loop load, as harness.ts's `load` (each of `workers` clients sends its next request as
 * soon as the last one answered, keep-alive connections), with the request headers a browser sends
 * (`acceptEncoding`; '' sends none) and the bytes of every answer; `lastBody` is the last 200 answer's
 * body as the client reads it (decoded).
 */
export async function wireLoad(options: {
  port: number;
  seconds: number;
  workers: number;
  path: (worker: number, i: number) => string;
  token: (worker: number) => string;
  agent: http.Agent;
  acceptEncoding: string;
}): Promise<{ samples: WireSample[]; seconds: number; lastBody: Buffer | null }> {
  const samples: WireSample[] = [];
  const started = performance.now();
  const end = started + options.seconds * 1000;
  let lastBody: Buffer | null = null;
  const one = (worker: number, i: number) =>
    new Promise<WireSample>((resolve, reject) => {
      const t0 = performance.now();
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.token(worker)}`,
        accept: 'application/json',
      };
      if (options.acceptEncoding) headers['accept-encoding'] = options.acceptEncoding;
      const req = http.request(
        {
          host: '127.0.0.1',
          port: options.port,
          path: options.path(worker, i),
          agent: options.agent,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            // "HTTP/1.1 200 OK\r\n", each header line, the blank line.
            let head = 17 + 2;
            for (let h = 0; h < res.rawHeaders.length; h += 2)
              head += res.rawHeaders[h]!.length + 2 + res.rawHeaders[h + 1]!.length + 2;
            const encoding = String(res.headers['content-encoding'] ?? 'identity');
            if (res.statusCode === 200) lastBody = decode(body, encoding);
            resolve({
              ms: performance.now() - t0,
              status: res.statusCode ?? 0,
              serverTiming: res.headers['server-timing'] as string | undefined,
              at: t0 - started,
              wireBytes: head + body.length,
              bodyBytes: body.length,
              encoding,
            });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: options.workers }, async (_, worker) => {
      for (let i = 0; performance.now() < end; i++) samples.push(await one(worker, i));
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000, lastBody };
}

/** An answer's body as the client reads it. */
export function decode(body: Buffer, encoding: string): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'zstd') return zstdDecompressSync(body);
  return body;
}

/**
 * ANALYZE, as autovacuum does within a real database's first minute: after a warm-up on a fresh
 * database, so that the measured load runs on plans made with statistics. Without it, the plans the
 * pool's connections cached while the tables were empty stay (a sequential scan of lookups in every
 * settle, over a few rows then and thousands by the end of a run): a fresh database's first minute,
 * not the steady state a deployment runs in. ANALYZE invalidates those plans.
 */
export async function analyzeDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
