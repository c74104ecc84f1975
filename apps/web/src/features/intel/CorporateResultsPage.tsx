import { IntelResultsPage } from './IntelResultsPage.tsx';

export default function CorporateResultsPage() {
  return <IntelResultsPage area="corporate" />;
}
