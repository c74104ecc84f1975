// The prerendered pages (apps/web/scripts/prerender.ts) start the app with this script instead of a
// module script in <head>: once the whole page has painted, so that the app's JavaScript never competes
// with the document and the stylesheet for a slow connection. It then asks for the entry chunk and
// the page's own chunks at once (data-entry, data-chunks), one round trip.
(() => {
  const script = document.currentScript;
  const entry = script?.dataset.entry;
  if (!entry) return;
  const chunks = (script.dataset.chunks ?? '').split(' ').filter(Boolean);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of chunks) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    import(entry);
  };
  // After the load event the whole document and the stylesheet are in; the frame after it has
  // painted them. A hidden tab paints no frames, so there the app starts at once.
  const afterPaint = () => {
    if (document.visibilityState === 'hidden') start();
    else requestAnimationFrame(() => setTimeout(start, 0));
  };
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
})();
