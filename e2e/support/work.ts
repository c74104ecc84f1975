import { readdirSync, readFileSync } from 'node:fs';

/**
 * What one spec file's browser did: the pages it opened (and the browser contexts they needed), the documents it loaded (each a
 * cold start of the web app), and the axe checks and settles it ran, with their time. With
 * E2E_TIMINGS=1 the file prints it when it ends (support/browser.ts), so that a change to the suite
 * can be weighed in work done rather than in wall time on a shared machine.
 */
export const work = { contexts: 0, reused: 0, loads: 0, axeRuns: 0, axeMs: 0, settles: 0, settleMs: 0 };

export const timingsWanted = Boolean(process.env.E2E_TIMINGS);

/**
 * The CPU time, in seconds, of this test process and of every process under it (its Chromium's, a
 * spec's own server), sampled from /proc every 250 ms while E2E_TIMINGS is set: Chromium does not wait
 * for its renderers, so their time never reaches the test process's own count of its children's, and
 * a closed page's renderer is gone by the file's end. A process keeps the time it had when last seen
 * (a renderer that ends between two samples loses at most a quarter of a second). The difference over
 * a file is the file's work in CPU: unlike wall time, it hardly moves with the machine's load. The
 * suite's shared server is not under the test process, so it is not counted.
 */
const seen = new Map<string, number>();
const under = new Set<string>();

function sampleCpu(): number {
  try {
    const procs: Array<{ pid: string; ppid: string; key: string; ticks: number }> = [];
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the name's closing parenthesis: the state is field 3, the parent 4, utime and
        // stime 14 and 15, the start time 22.
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        procs.push({ pid, ppid: f[1] ?? '', key: `${pid}:${f[19]}`, ticks: Number(f[11]) + Number(f[12]) });
      } catch {}
    }
    under.add(String(process.pid));
    for (let grew = true; grew; ) {
      grew = false;
      for (const proc of procs) {
        if (!under.has(proc.pid) && under.has(proc.ppid)) {
          under.add(proc.pid);
          grew = true;
        }
      }
    }
    for (const proc of procs) if (under.has(proc.pid)) seen.set(proc.key, proc.ticks);
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const value of seen.values()) ticks += value;
  return ticks / 100;
}

let sampler: ReturnType<typeof setInterval> | undefined;
let cpuAtStart = 0;

export function resetWork(): void {
  for (const key of Object.keys(work) as Array<keyof typeof work>) work[key] = 0;
  if (!timingsWanted) return;
  sampler ??= setInterval(sampleCpu, 250);
  sampler.unref();
  cpuAtStart = sampleCpu();
}

/** Prints the file's work (with E2E_TIMINGS), once its browser has closed. */
export function reportWork(file: string): void {
  // A file whose own setup failed ran no test: nothing of its own to report.
  if (!timingsWanted || !file) return;
  const { contexts, reused, loads, axeRuns, axeMs, settles, settleMs } = work;
  const cpu = sampleCpu() - cpuAtStart;
  console.log(
    `[work] ${file}: ${contexts + reused} pages (${contexts} contexts), ${loads} document loads, ${axeRuns} axe checks (${Math.round(axeMs / 1000)} s), ${settles} settles (${Math.round(settleMs / 1000)} s), ${Math.round(cpu)} s CPU (test process and browser)`,
  );
}
