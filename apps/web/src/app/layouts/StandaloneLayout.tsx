import { Outlet } from 'react-router';

/** A bare, centred frame for single-task screens such as OTP verification (spec §2.2). */
export default function StandaloneLayout() {
  return (
    <div className="relative flex min-h-dvh flex-col bg-ink">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(34,211,238,0.12),transparent_60%)]"
      />
      <main className="relative flex flex-1 items-center justify-center px-4 py-10 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}
