import { messages } from '@footprint/domain';

/**
 * What a route shows when it cannot be drawn: above all when its code chunk fails to load (the
 * connection dropped, or a deploy replaced the chunks this tab knows). It needs none of the app's
 * providers, so it works whatever failed, and it offers a reload, which fetches the current version.
 */
export default function RouteError() {
  const t = messages.layout;
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-xl flex-col items-start justify-center gap-4 px-6 py-10">
      <h1 className="text-2xl font-bold tracking-tight text-text">{t.routeErrorTitle}</h1>
      <p className="text-sm text-muted sm:text-base">{t.routeErrorLead}</p>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
          {t.reload}
        </button>
        <a href="/" className="btn-ghost">
          {t.home}
        </a>
      </div>
    </main>
  );
}
