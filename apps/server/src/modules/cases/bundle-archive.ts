/**
 * The ZIP of a bundle as it streams: each file drawn only when the archive has taken the one before
 * (so a large case never sits in memory, and a slow or vanished client stops the drawing), every
 * file's SHA-256 and size counted as it goes in, and the ZIP's own hashed as it leaves.
 */
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';
import { DomainError } from '../../errors.ts';
import type { BundleFile } from './bundle-manifest.ts';

/** How often a bundle waits for a full report queue before it gives up. */
const MAX_BUSY_TRIES = 60;

export interface BundleArchive {
  /** The ZIP as it is made: what is sent. Its 'close' before the end means the client went away. */
  stream: Transform;
  /** The files added so far, as the manifest lists them. */
  files: BundleFile[];
  /** True once the stream has closed (a client that left): nothing more is drawn. */
  readonly aborted: boolean;
  add(
    path: string,
    data: Buffer | AsyncIterable<string>,
    compress: boolean,
    extra?: Partial<BundleFile>,
  ): Promise<void>;
  whenFree<T>(work: () => Promise<T>): Promise<T>;
  /** Ends the archive once its last file is added: the stream then ends and `seal` runs. */
  end(): void;
  /** Stops the archive after a failure of the drawing. */
  fail(error: Error): void;
}

/**
 * Opens an archive whose files are stamped `started`. `seal` runs with the ZIP's hash and size once
 * its last byte is made (never for an archive left unfinished); the stream ends when it has.
 */
export function createBundleArchive(options: {
  started: Date;
  now: () => Date;
  seal: (zip: { sha256: string; bytes: number; files: BundleFile[] }) => Promise<void>;
}): BundleArchive {
  const { started, now } = options;
  const zip = new ZipFile();
  const files: BundleFile[] = [];
  let aborted = false;

  // The ZIP's own hash, as it streams; registered when its last byte is made.
  const hash = createHash('sha256');
  let bytes = 0;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      options.seal({ sha256: hash.digest('hex'), bytes, files }).then(
        () => done(),
        (error: Error) => done(error),
      );
    },
  });
  out.on('close', () => {
    aborted = true;
  });
  zip.outputStream.on('error', (error) => out.destroy(error));
  zip.outputStream.pipe(out);

  /**
   * Adds one file once the archive has taken the previous one, hashing it as it goes in; resolves
   * when the archive has taken all of it (a stalled client stalls the next file's drawing).
   */
  const add = (
    path: string,
    data: Buffer | AsyncIterable<string>,
    compress: boolean,
    extra: Partial<BundleFile> = {},
  ) =>
    new Promise<void>((resolve, reject) => {
      const gone = () => reject(new Error('the client went away'));
      if (aborted) return gone();
      out.once('close', gone);
      const fileHash = createHash('sha256');
      let fileBytes = 0;
      zip.addReadStreamLazy(path, { compress, mtime: started }, (ready) => {
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            fileHash.update(chunk);
            fileBytes += chunk.length;
            done(null, chunk);
          },
        });
        const source = Buffer.isBuffer(data) ? Readable.from([data]) : Readable.from(data);
        source.once('error', reject);
        counted.once('end', () => {
          out.off('close', gone);
          files.push({
            path,
            sha256: fileHash.digest('hex'),
            bytes: fileBytes,
            generated_at: now().toISOString(),
            ...extra,
          });
          resolve();
        });
        ready(null, source.pipe(counted));
      });
    });

  /**
   * Draws through the report pool; while its queue is full (503 reports_busy) the bundle waits the
   * time the pool names and tries again, rather than failing half-sent.
   */
  async function whenFree<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        const busy = error instanceof DomainError && error.code === 'reports_busy';
        if (!busy || aborted || attempt >= MAX_BUSY_TRIES) throw error;
        const seconds = Number(error.extra.retry_after) || 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 10) * 1000));
      }
    }
  }

  return {
    stream: out,
    files,
    get aborted() {
      return aborted;
    },
    add,
    whenFree,
    end: () => zip.end(),
    fail(error: Error) {
      // A client that went away stops the drawing: nothing more is made and nothing is registered.
      if (!aborted) out.destroy(error);
      zip.outputStream.unpipe(out);
    },
  };
}
