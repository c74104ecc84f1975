// Runs in a worker thread of the report pool: PDF drawing is CPU work that must never slow lookups.
// It gets plain data (no database handle), draws, and hands the PDF's memory back without a copy.
import { setPriority } from 'node:os';
import { move } from 'piscina';
import { jobOf, type ReportTask } from './job.ts';
import { renderReport } from './render/index.ts';

// On Linux the nice value belongs to the thread, so this lowers only the render thread: when the CPU
// is contended, the scheduler serves the request thread (lookups) first and reports take the rest.
try {
  setPriority(19);
} catch {
  // Not permitted or not supported here: reports simply run at normal priority.
}

export default async function render(task: ReportTask): Promise<Uint8Array> {
  const pdf = await renderReport(jobOf(task));
  // Transfer only memory the PDF owns alone (a small Buffer can be a slice of Node's shared pool).
  const owned =
    pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength
      ? new Uint8Array(pdf.buffer, 0, pdf.byteLength)
      : new Uint8Array(pdf);
  return move(owned) as Uint8Array;
}

export { warmUp } from './warm-up.ts';
