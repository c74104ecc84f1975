// Runs in a worker thread of the report pool: PDF drawing is CPU work that must never slow lookups.
import { setPriority } from 'node:os';
import { renderReport } from './render/index.ts';
import type { ReportJob } from './render/types.ts';

// On Linux the nice value belongs to the thread, so this lowers only the render thread: when the CPU
// is contended, the scheduler serves the request thread (lookups) first and reports take the rest.
try {
  setPriority(19);
} catch {
  // Not permitted or not supported here: reports simply run at normal priority.
}

export default async function render(job: ReportJob): Promise<Uint8Array> {
  return new Uint8Array(await renderReport(job));
}
