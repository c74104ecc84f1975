import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageSpinner } from '../components/Spinner.tsx';
import { paths } from '../config/paths.ts';
import AppRoot from './AppRoot.tsx';
import RouteError from './RouteError.tsx';

/** Every page is its own chunk, so each route loads only what it shows. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    HydrateFallback: PageSpinner,
    // A page whose chunk cannot load says so and offers a reload, never the router's developer screen.
    errorElement: <RouteError />,
    children: [
      {
        ...page(() => import('./layouts/PublicLayout.tsx')),
        children: [
          { path: paths.home, ...page(() => import('../features/public/pages/HomePage.tsx')) },
          { path: paths.about, ...page(() => import('../features/public/pages/AboutPage.tsx')) },
          {
            path: paths.attributions,
            ...page(() => import('../features/public/pages/AttributionsPage.tsx')),
          },
          { path: paths.contact, ...page(() => import('../features/public/pages/ContactPage.tsx')) },
          { path: paths.privacy, ...page(() => import('../features/public/pages/PrivacyPage.tsx')) },
          { path: paths.terms, ...page(() => import('../features/public/pages/TermsPage.tsx')) },
          { path: paths.refund, ...page(() => import('../features/public/pages/RefundPage.tsx')) },
          {
            path: paths.verifyReport,
            ...page(() => import('../features/public/pages/VerifyReportPage.tsx')),
          },
          ...[paths.product, paths.pricing, paths.shipping, paths.returns].map((path) => ({
            path,
            ...page(() => import('../features/public/pages/PlaceholderPage.tsx')),
          })),
          {
            ...page(() => import('./guards/GuestOnly.tsx')),
            children: [
              { path: paths.login, ...page(() => import('../features/auth/pages/LoginPage.tsx')) },
              { path: paths.register, ...page(() => import('../features/auth/pages/RegisterPage.tsx')) },
              {
                path: paths.forgotPassword,
                ...page(() => import('../features/auth/pages/ForgotPasswordPage.tsx')),
              },
              {
                path: '/password-reset/:token',
                ...page(() => import('../features/auth/pages/ResetPasswordPage.tsx')),
              },
            ],
          },
          { path: '*', ...page(() => import('../features/public/pages/NotFoundPage.tsx')) },
        ],
      },
      {
        ...page(() => import('./layouts/StandaloneLayout.tsx')),
        children: [
          {
            ...page(() => import('./guards/GuestOnly.tsx')),
            children: [
              { path: paths.otp, ...page(() => import('../features/auth/pages/OtpPage.tsx')) },
              {
                path: paths.secondFactor,
                ...page(() => import('../features/auth/pages/SecondFactorPage.tsx')),
              },
            ],
          },
        ],
      },
      {
        ...page(() => import('./layouts/MainLayout.tsx')),
        children: [
          { path: paths.dashboard, ...page(() => import('../features/search/DashboardPage.tsx')) },
          { path: paths.upgrade, ...page(() => import('../features/upgrade/UpgradePage.tsx')) },
          { path: paths.help, ...page(() => import('../features/help/HelpPage.tsx')) },
          { path: paths.results, ...page(() => import('../features/results/ResultsPage.tsx')) },
          { path: paths.leakFinder, ...page(() => import('../features/leaks/LeakFinderPage.tsx')) },
          {
            // Spec §4 Guards: corporate and verification are for live accounts; others go to /upgrade.
            ...page(() => import('./guards/LiveOnly.tsx')),
            children: [
              { path: paths.corporate, ...page(() => import('../features/intel/CorporatePage.tsx')) },
              {
                path: paths.corporateResults,
                ...page(() => import('../features/intel/CorporateResultsPage.tsx')),
              },
              { path: paths.verification, ...page(() => import('../features/intel/VerificationPage.tsx')) },
              { path: paths.apiKeys, ...page(() => import('../features/api-keys/ApiKeysPage.tsx')) },
              {
                path: paths.verificationResults,
                ...page(() => import('../features/intel/VerificationResultsPage.tsx')),
              },
              { path: paths.bulk, ...page(() => import('../features/bulk/BulkPage.tsx')) },
              { path: paths.watchlist, ...page(() => import('../features/watchlists/WatchlistPage.tsx')) },
            ],
          },
          { path: paths.subscription, ...page(() => import('../features/common/ComingSoonPage.tsx')) },
          { path: paths.history, ...page(() => import('../features/history/HistoryPage.tsx')) },
          { path: '/history/:id', ...page(() => import('../features/history/HistoryEntryPage.tsx')) },
          { path: paths.reviews, ...page(() => import('../features/reviews/ReviewsPage.tsx')) },
          { path: paths.approvals, ...page(() => import('../features/approvals/ApprovalsPage.tsx')) },
          { path: paths.cases, ...page(() => import('../features/cases/CasesPage.tsx')) },
          { path: '/cases/:id', ...page(() => import('../features/cases/CasePage.tsx')) },
          {
            path: '/cases/:id/captures/:captureId',
            ...page(() => import('../features/cases/CapturePage.tsx')),
          },
          { path: paths.security, ...page(() => import('../features/security/SecurityPage.tsx')) },
          {
            // The units screen for supervisors and unit admins (and admins): the UnitsOnly guard reads
            // their memberships; the server answers each call as their roles allow.
            ...page(() => import('./guards/UnitsOnly.tsx')),
            children: [
              { path: paths.units, ...page(() => import('../features/admin/pages/MyUnitsPage.tsx')) },
            ],
          },
          {
            // The admin area (users, credits, audit trail; beyond the spec), for admins only (the
            // server checks every call again).
            ...page(() => import('./guards/AdminOnly.tsx')),
            children: [
              {
                path: paths.admin,
                ...page(() => import('../features/admin/AdminLayout.tsx')),
                children: [
                  { index: true, ...page(() => import('../features/admin/pages/AdminIndex.tsx')) },
                  { path: 'users', ...page(() => import('../features/admin/pages/UsersPage.tsx')) },
                  { path: 'users/:id', ...page(() => import('../features/admin/pages/UserPage.tsx')) },
                  { path: 'units', ...page(() => import('../features/admin/pages/UnitsPage.tsx')) },
                  { path: 'audit', ...page(() => import('../features/admin/pages/AuditPage.tsx')) },
                  { path: 'providers', ...page(() => import('../features/admin/pages/ProvidersPage.tsx')) },
                  {
                    path: 'leak-sources',
                    ...page(() => import('../features/admin/pages/LeakSourcesPage.tsx')),
                  },
                  {
                    path: 'site-health',
                    ...page(() => import('../features/admin/pages/SiteHealthPage.tsx')),
                  },
                  { path: 'settings', ...page(() => import('../features/admin/pages/SettingsPage.tsx')) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
