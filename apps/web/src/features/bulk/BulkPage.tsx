import { messages } from '@footprint/domain';
import { useRef } from 'react';
import { QueryView } from '../../components/LoadError.tsx';
import { useBulkJobs } from './api/listBulkJobs.ts';
import { JobCard } from './components/JobCard.tsx';
import { NewBulkPanel } from './components/NewBulkPanel.tsx';

/**
 * /bulk (beyond the spec, live accounts only): a list of phone numbers, e-mail addresses or usernames checked,
 * priced and run as one background job, and the user's jobs with their live progress, controls and
 * results. Each row is a paid lookup of its own, so it is audited and kept in the history like one.
 */

const t = messages.bulkPage;

export default function BulkPage() {
  const jobs = useBulkJobs();
  const jobsHeading = useRef<HTMLHeadingElement>(null);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-3xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div className="mt-6">
        <NewBulkPanel onStarted={() => jobsHeading.current?.focus()} />
      </div>

      <section aria-labelledby="bulk-jobs-title" className="mt-8">
        <h2
          ref={jobsHeading}
          id="bulk-jobs-title"
          tabIndex={-1}
          className="scroll-mt-20 text-lg font-semibold text-text focus:outline-none"
        >
          {t.jobsTitle}
        </h2>
        <div className="mt-3">
          <QueryView
            query={jobs}
            failed={t.loadFailed}
            retryLabel={t.retry}
            empty={t.jobsEmpty}
            isEmpty={(data) => data.length === 0}
          >
            {(data) => (
              <ul className="flex flex-col gap-3" aria-labelledby="bulk-jobs-title">
                {data.map((job) => (
                  <JobCard key={job.id} job={job} />
                ))}
              </ul>
            )}
          </QueryView>
        </div>
      </section>
    </div>
  );
}
