import type { ReactNode } from 'react';
import { Logo } from '../../../components/Logo.tsx';
import { paths } from '../../../config/paths.ts';

export interface AuthCardProps {
  /** The page's one h1. */
  title: string;
  subtitle?: ReactNode;
  /** Where the brand title leads (spec §2.2: '/' on the sign-in pages). */
  logoTo?: string;
  children: ReactNode;
  /** Links under the card body (sign up, back to login...). */
  footer?: ReactNode;
}

/** The centred card every authentication page sits in. */
export function AuthCard({ title, subtitle, logoTo = paths.home, children, footer }: AuthCardProps) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10 sm:px-6 lg:py-16">
      <section className="card w-full max-w-md p-6 shadow-2xl shadow-black/40 sm:p-8">
        {/* Small screens already show the brand in the public layout's top bar. */}
        <div className="mb-6 hidden justify-center lg:flex">
          <Logo to={logoTo} size="lg" />
        </div>
        <header className="mb-6 text-center">
          <h1 className="text-2xl font-bold tracking-tight text-text">{title}</h1>
          {subtitle && <p className="mt-2 text-sm text-muted">{subtitle}</p>}
        </header>
        {children}
        {footer && (
          <div className="mt-6 border-t border-line pt-5 text-center text-sm text-muted">{footer}</div>
        )}
      </section>
    </div>
  );
}
