import { IntelResultsPage } from './IntelResultsPage.tsx';

export default function VerificationResultsPage() {
  return <IntelResultsPage area="verification" />;
}
