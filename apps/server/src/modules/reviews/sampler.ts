/**
 * Draws searches into review (sampled review): every run takes the answered searches made since the
 * last run, up to a few minutes ago (so that a search still running is not passed over), and samples
 * the admin's share of them. The draw is a hash of the search's random id: the searcher cannot tell
 * which of their searches will be drawn, and two processes running at once draw the same ones (the
 * insert ignores a search drawn already). The first run only marks where sampling starts: searches
 * made before the share was set are not drawn after the fact.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { logFailure } from '../../outage.ts';
import {
  type DeploymentDefaults,
  readDeploymentSettings,
  readSetting,
  writeSetting,
} from '../settings/service.ts';

/** A search is drawn this long after it was made at the earliest (REVIEW_SAMPLE_LAG_SECONDS). */
export const SAMPLE_LAG_MS = 5 * 60_000;
/** The setting where the sampler keeps how far it has drawn: its own bookkeeping, moved by its timer. */
export const WATERMARK = 'review_watermark';

export async function sampleForReview(
  db: Executor,
  defaults: DeploymentDefaults,
  options: { now?: Date; from?: Date; lagMs?: number } = {},
): Promise<{ sampled: number; until: Date }> {
  const now = options.now ?? new Date();
  const until = new Date(now.getTime() - (options.lagMs ?? SAMPLE_LAG_MS));
  const stored = await readSetting<string>(db, WATERMARK);
  const from = options.from ?? (stored ? new Date(stored) : until);
  if (until.getTime() <= from.getTime()) {
    if (!stored) await writeSetting(db, WATERMARK, until.toISOString());
    return { sampled: 0, until };
  }
  const { reviewSharePercent } = await readDeploymentSettings(db, defaults, { fresh: true });
  let sampled = 0;
  if (reviewSharePercent > 0) {
    // Two bytes of the id's MD5: 0 to 65535, drawn when below the share of 65536.
    const rows = rowsOf<{ lookup_id: string }>(
      await db.execute(sql`
        insert into review_samples (lookup_id, sampled_at)
        select l.id, ${now.toISOString()}::timestamptz from lookups l
        where l.created_at > ${from.toISOString()}::timestamptz and l.created_at <= ${until.toISOString()}::timestamptz
          and l.status in ('complete', 'no_record')
          and get_byte(decode(md5(l.id::text), 'hex'), 0) * 256 + get_byte(decode(md5(l.id::text), 'hex'), 1)
            < ${Math.round((reviewSharePercent / 100) * 65_536)}
        on conflict (lookup_id) do nothing
        returning lookup_id`),
    );
    sampled = rows.length;
  }
  await writeSetting(db, WATERMARK, until.toISOString());
  return { sampled, until };
}

/** Samples every `intervalMs`, `lagMs` behind (unref'd timers); returns the function that stops it. */
export function scheduleReviewSampling(
  db: Executor,
  defaults: DeploymentDefaults,
  timing: { intervalMs: number; lagMs: number },
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): () => void {
  const { intervalMs, lagMs } = timing;
  if (intervalMs <= 0) return () => {};
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const { sampled } = await sampleForReview(db, defaults, { lagMs });
      if (sampled > 0) log.info({ sampled }, 'searches drawn for review');
    } catch (err) {
      logFailure(log, err, {}, 'review sampling failed');
    } finally {
      running = false;
    }
  };
  const every = setInterval(() => void run(), intervalMs);
  every.unref();
  return () => clearInterval(every);
}
