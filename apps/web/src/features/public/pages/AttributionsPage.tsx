import { messages } from '@footprint/domain';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAttributions } from '../api/attributions.ts';

const words = messages.public.attributions;

/**
 * '/attributions': the notices of the third-party works Footprint ships, with their licence texts as the
 * server ships them. The username lookup's site catalogue is built from the Sherlock and Maigret lists.
 */
export default function AttributionsPage() {
  const { data, isPending, isError, refetch } = useAttributions();
  return (
    <>
      <title>{`${words.title} — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="attributions-title">
        <p className="eyebrow">{messages.public.footerLinks.attributions}</p>
        <h1 id="attributions-title" className="page-title">
          {words.title}
        </h1>
        <p className="page-lead">{words.lead}</p>
        {isPending && (
          <div className="mt-10 flex justify-center">
            <Spinner />
          </div>
        )}
        {isError && (
          <div role="alert" className="card mt-10 p-6 text-sm text-muted">
            <p>{words.failed}</p>
            <button type="button" className="btn-ghost mt-4" onClick={() => void refetch()}>
              {words.retry}
            </button>
          </div>
        )}
        {data && (
          <>
            <p className="mt-6 text-sm text-muted">
              {words.catalogue(data.catalogue.sites, data.catalogue.built_from)}
            </p>
            <div className="mt-8 space-y-6">
              {data.notices.map((notice) => (
                <section
                  key={notice.work}
                  className="card p-6 sm:p-8"
                  aria-labelledby={`notice-${notice.work}`}
                >
                  <h2 id={`notice-${notice.work}`} className="text-lg font-semibold text-text">
                    {notice.work}
                  </h2>
                  <p className="mt-2 text-sm text-muted">{notice.part}</p>
                  <p className="mt-2 text-sm">
                    <a
                      href={notice.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="font-medium text-accent underline underline-offset-4 break-all"
                    >
                      {notice.url}
                    </a>
                  </p>
                  <p className="mt-2 text-sm text-muted">
                    {words.licence(notice.licence)} · {notice.copyright}
                  </p>
                  <pre className="mt-4 rounded-lg border border-line bg-ink/60 p-4 text-xs leading-relaxed whitespace-pre-wrap text-muted">
                    {notice.text}
                  </pre>
                </section>
              ))}
            </div>
          </>
        )}
      </article>
    </>
  );
}
