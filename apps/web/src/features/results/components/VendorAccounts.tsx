import { messages } from '@footprint/domain';
import { useId } from 'react';
import { clockTime } from '../username.ts';
import type { VendorAccounts as Search } from '../vendorAccounts.ts';
import { CaptureButton } from './CaptureButton.tsx';
import { ExternalLink } from './ExternalLink.tsx';

const t = messages.usernameResults;

/**
 * The accounts a vendor's account search reported for the name, attributed to the vendor: the site,
 * the username there and the profile address (opens in a new tab), with 'Capture' to keep the page
 * in a case. Footprint did not open these pages: unlike the site check's, they carry no evidence. A search that ran out of time says so.
 */
export function VendorAccounts({ search }: { search: Search }) {
  const id = useId();
  const { vendor, accounts } = search;
  return (
    <section aria-labelledby={id} className="card px-4 pt-3 pb-1 sm:px-5">
      <h2 id={id} className="section-title">
        {t.vendorTitle}
        <span className="section-count">{accounts.length.toLocaleString('en-US')}</span>
      </h2>
      <p className="mt-1 text-xs leading-relaxed text-muted">{t.vendorLead(vendor)}</p>
      {!search.complete && <p className="mt-1 text-xs leading-relaxed text-warning">{t.vendorIncomplete}</p>}
      <ul aria-label={t.vendorListLabel(accounts.length, vendor)} className="mt-1 divide-y divide-line/70">
        {accounts.map((account) => (
          <li
            // The server lists each site, name and address once.
            key={`${account.site}|${account.username ?? ''}|${account.url ?? ''}`}
            className="grid gap-x-4 gap-y-1 py-2.5 md:grid-cols-[minmax(11rem,15rem)_minmax(0,1fr)_auto] md:items-center"
          >
            <div className="flex min-w-0 flex-col">
              <span className="font-semibold break-words text-text">{account.site}</span>
              <span className="font-mono text-[0.8rem] break-all text-text/90">
                {account.username ?? <span className="font-sans text-muted">{t.vendorNoName}</span>}
              </span>
            </div>
            <p className="min-w-0 font-mono text-[0.8rem] break-all">
              {account.url ? (
                <ExternalLink href={account.url}>{account.url}</ExternalLink>
              ) : (
                <span className="font-sans text-xs text-muted">{t.vendorNoLink}</span>
              )}
            </p>
            <div className="flex items-center justify-between gap-3 md:justify-end">
              <time
                dateTime={account.found_at}
                title={account.found_at}
                className="text-xs text-muted tabular-nums"
              >
                {t.vendorReportedAt(clockTime(account.found_at))}
              </time>
              <CaptureButton url={account.url} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
