/** /dashboard is the search screen (spec §2.3); it lives with the search feature. */
export { default } from '../search/DashboardPage.tsx';
