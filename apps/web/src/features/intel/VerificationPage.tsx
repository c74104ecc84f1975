import { IntelSearchPage } from './IntelSearchPage.tsx';

export default function VerificationPage() {
  return <IntelSearchPage area="verification" />;
}
