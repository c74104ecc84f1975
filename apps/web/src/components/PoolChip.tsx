import { messages, type OwnPool } from '@footprint/domain';

const t = messages.pools;

/**
 * Beside the credits in the header, for a member of a unit's credit pool: what a search may still draw
 * from it this month, of the allowance ('Pool: 12 of 40 this month'; on phones 'Pool: 12'). The unit,
 * what was used and what the pool holds are in its title, and said to screen readers.
 */
export function PoolChip({ pool }: { pool: OwnPool }) {
  return (
    <p
      className="inline-block rounded-full border border-line bg-surface-2/60 px-2 py-1.5 text-xs font-semibold whitespace-nowrap text-text tabular-nums sm:px-3 sm:text-sm"
      title={t.chipTitle(pool.unit_name, pool.used_this_month, pool.monthly_allowance, pool.balance)}
      data-testid="pool-chip"
    >
      {t.chip(pool.available)}
      <span className="hidden md:inline">{t.chipOf(pool.monthly_allowance)}</span>
      <span className="sr-only">{t.chipUnit(pool.unit_name)}</span>
    </p>
  );
}
