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
  // After the load event the whole document and the stylesheet are in, and the frame after it draws
  // them; the first contentful paint's entry then says that the paint has reached the screen. A hidden
  // tab paints no frames, so there the app starts at once; without paint timing, after that frame.
  const whenPainted = () => {
    try {
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        start();
      }).observe({ type: 'paint', buffered: true });
    } catch {
      start();
    }
    // Never later than this, whatever paint timing says.
    setTimeout(start, 3000);
  };
  const afterLoad = () => {
    if (document.visibilityState === 'hidden') start();
    else requestAnimationFrame(() => setTimeout(whenPainted, 0));
  };
  // A page with nothing contentful to paint first (the fallback spinner, data-start="parsed") starts
  // at once: it would wait for a first contentful paint that only the app can make.
  if (script.dataset.start === 'parsed') start();
  else if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
})();
