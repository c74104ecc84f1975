import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The text of a PDF as poppler's pdftotext reads it; pages are separated by form feeds. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'fp-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 20 * 1024 * 1024 });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
