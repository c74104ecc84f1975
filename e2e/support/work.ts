/**
 * What one spec file's browser did: the contexts (pages) it opened, the documents it loaded (each a
 * cold start of the web app), and the axe checks and settles it ran, with their time. With
 * E2E_TIMINGS=1 the file prints it when it ends (support/browser.ts), so that a change to the suite
 * can be weighed in work done rather than in wall time on a shared machine.
 */
export const work = { contexts: 0, loads: 0, axeRuns: 0, axeMs: 0, settles: 0, settleMs: 0 };

export const timingsWanted = Boolean(process.env.E2E_TIMINGS);

export function resetWork(): void {
  for (const key of Object.keys(work) as Array<keyof typeof work>) work[key] = 0;
}

export function reportWork(file: string): void {
  if (!timingsWanted) return;
  const { contexts, loads, axeRuns, axeMs, settles, settleMs } = work;
  console.log(
    `[work] ${file}: ${contexts} pages, ${loads} document loads, ${axeRuns} axe checks (${Math.round(axeMs / 1000)} s), ${settles} settles (${Math.round(settleMs / 1000)} s)`,
  );
}
