import { PARTICLES } from '@footprint/domain';
import type { IParticlesProps } from '@tsparticles/react';
import { type ComponentType, lazy, Suspense, useCallback, useEffect, useState } from 'react';

type ISourceOptions = NonNullable<IParticlesProps['options']>;

const cyan = '#22d3ee';
const PARTICLES_ELEMENT_ID = 'footprint-particles';

/** Spec §9: 100 particles, 120 fps cap, links at 120 px, grab at 180 px on hover, no click effect. */
const baseOptions: ISourceOptions = {
  fullScreen: { enable: false },
  background: { color: { value: 'transparent' } },
  fpsLimit: PARTICLES.fpsLimit,
  detectRetina: true,
  pauseOnBlur: true,
  pauseOnOutsideViewport: true,
  resize: { enable: true, delay: 0.25 },
  particles: {
    number: { value: PARTICLES.count },
    // v4 moved particle colour from `color` to `paint`.
    paint: { color: { value: cyan }, fill: { enable: true } },
    opacity: { value: { min: 0.25, max: 0.6 } },
    size: { value: { min: 1, max: 2.4 } },
    shape: { type: 'circle' },
    links: {
      enable: true,
      distance: PARTICLES.linkDistance,
      color: cyan,
      opacity: 0.2,
      width: 1,
    },
    move: {
      enable: true,
      speed: 0.6,
      direction: 'none',
      random: false,
      straight: false,
      outModes: { default: 'out' },
    },
  },
  interactivity: {
    // Listening on the window keeps the canvas click-through while hover still reaches it.
    detectsOn: 'window',
    events: {
      onHover: { enable: true, mode: 'grab' },
      onClick: { enable: false },
    },
    modes: {
      grab: { distance: PARTICLES.grabDistance, links: { opacity: 0.45 } },
    },
  },
};

/**
 * Same field, standing still, for people who ask their system for reduced motion. It does not keep the
 * engine's frame loop running: a field that never moves is drawn for a moment, then again only when
 * something changes it (a resize, the pointer's grab, the tab shown again). A loop redrawing a still
 * picture sixty times a second took a whole core of a machine without a GPU, for nothing the visitor
 * could see.
 */
const stillOptions: ISourceOptions = {
  ...baseOptions,
  particles: { ...baseOptions.particles, move: { enable: false } },
};

/**
 * How long the still field draws after a change before it stops. Not one frame: the engine draws into
 * an OffscreenCanvas, and Chromium shows such a canvas's frame only once its compositor has taken one
 * (a single draw after a quiet spell was not shown, e2e/conformance).
 */
const STILL_DRAW_MS = 400;

/** What the still field needs of the engine's container. */
interface StillContainer {
  /** True while the frame loop runs. */
  readonly animationStatus: boolean;
  play(): void;
  pause(): void;
  actualOptions: { resize: { delay: number } };
}

/**
 * The still fields on the page, each with the function that stops it after its moment: the engine starts
 * a field again by itself (a resize that changes its options refreshes it) and then plays it.
 */
const stillFields = new Map<object, () => void>();

/**
 * Lets a still field draw for a moment now, and again after a resize (once the engine has resized its
 * canvas, which clears it), while the pointer moves (the grab links follow it), when the tab is shown
 * again and when the engine starts it again; between those it is paused. Returns the function that
 * stops listening.
 */
function drawStillField(container: StillContainer): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopLater = (extraMs = 0) => {
    clearTimeout(timer);
    timer = setTimeout(() => container.pause(), STILL_DRAW_MS + extraMs);
  };
  const draw = (extraMs = 0) => {
    // play() on a running loop would start a second one beside it, which pause() would not stop.
    if (!container.animationStatus) container.play();
    stopLater(extraMs);
  };
  stillFields.set(container, stopLater);
  const onPointer = () => draw();
  const onResize = () => draw(container.actualOptions.resize.delay * 1000);
  const onVisible = () => {
    if (document.visibilityState === 'visible') draw();
  };
  draw();
  window.addEventListener('pointermove', onPointer, { passive: true });
  window.addEventListener('resize', onResize);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    clearTimeout(timer);
    stillFields.delete(container);
    window.removeEventListener('pointermove', onPointer);
    window.removeEventListener('resize', onResize);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * The engine, the slim bundle and the React wrapper load in their own chunk, after first paint.
 * Defined once at module scope: ParticlesProvider demands a stable init callback for the app's lifetime.
 */
const ParticlesCanvas = lazy(async (): Promise<{ default: ComponentType<{ still: boolean }> }> => {
  const [{ Particles, ParticlesProvider }, { loadSlim }] = await Promise.all([
    import('@tsparticles/react'),
    import('@tsparticles/slim'),
  ]);
  const init: typeof loadSlim = async (engine) => {
    await loadSlim(engine);
    // The engine plays a field it starts again; a still one stops again after its moment.
    engine.addEventListener('containerStarted', (event) => {
      if (event?.container) stillFields.get(event.container)?.();
    });
  };
  /**
   * A load that ends after the page has gone (a quick move from /login to the OTP page) finds no
   * element of ours, so the engine draws on a canvas it appends to <body>, where it would stay and
   * animate for the rest of the visit, lengthening every page below it. Such a field is removed.
   */
  type Loaded = StillContainer & { canvas: { domElement?: HTMLCanvasElement }; destroy(): void };
  const isOrphaned = (container: Loaded) =>
    !container.canvas.domElement?.closest(`div#${PARTICLES_ELEMENT_ID}`);
  return {
    default: function ParticlesCanvasInner({ still }: { still: boolean }) {
      // The loaded container of a still field, which this component draws (the engine does not).
      const [stillField, setStillField] = useState<Loaded>();
      useEffect(() => (stillField ? drawStillField(stillField) : undefined), [stillField]);
      // Stable per mode: the wrapper loads the field again whenever this callback changes.
      const loaded = useCallback(
        (container?: Loaded) => {
          if (!container) return;
          if (isOrphaned(container)) container.destroy();
          else setStillField(still ? container : undefined);
        },
        [still],
      );
      return (
        <ParticlesProvider init={init}>
          <Particles
            id={PARTICLES_ELEMENT_ID}
            particlesLoaded={loaded}
            // Same 100 particles on a phone crowd a smaller area: dim them so body text stays easy to read.
            className="h-full w-full opacity-55 md:opacity-100"
            options={still ? stillOptions : baseOptions}
          />
        </ParticlesProvider>
      );
    },
  };
});

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

/**
 * True once the page has painted its content (first contentful paint) and the browser is then idle,
 * so the background's code is fetched after the content, never competing with it. Browsers without
 * paint timing fall back to idle alone.
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let cancelIdle = () => {};
    const whenIdle = () => {
      if (cancelled) return;
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(() => setReady(true), { timeout: 1200 });
        cancelIdle = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(() => setReady(true), 200);
        cancelIdle = () => window.clearTimeout(handle);
      }
    };
    const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    let observer: PerformanceObserver | undefined;
    if (painted() || typeof PerformanceObserver === 'undefined') whenIdle();
    else {
      try {
        observer = new PerformanceObserver(() => {
          if (!painted()) return;
          observer?.disconnect();
          whenIdle();
        });
        observer.observe({ type: 'paint', buffered: true });
      } catch {
        whenIdle();
      }
    }
    return () => {
      cancelled = true;
      observer?.disconnect();
      cancelIdle();
    };
  }, []);
  return ready;
}

function usePrefersReducedMotion(): boolean {
  // No window when the build prerenders a page: the field starts moving there, as it does by default.
  const [reduced, setReduced] = useState(
    () => (typeof window !== 'undefined' && window.matchMedia?.(reducedMotionQuery).matches) || false,
  );
  useEffect(() => {
    const query = window.matchMedia?.(reducedMotionQuery);
    if (!query) return;
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * Animated particle field behind every public page (spec §2.1, §9). Fixed, full-screen, behind content,
 * hidden from assistive technology and transparent to clicks.
 */
export function ParticlesBackground() {
  const idle = useAfterFirstPaint();
  const reduced = usePrefersReducedMotion();
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 -z-10 overflow-hidden">
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,rgba(34,211,238,0.10),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(14,58,71,0.45),transparent_60%)]" />
      {idle && (
        <Suspense fallback={null}>
          <ParticlesCanvas still={reduced} />
        </Suspense>
      )}
    </div>
  );
}

export default ParticlesBackground;
